package dev.cpuprofiler.autoconfigure.export;

/** Told of each export outcome ({@link ExportMeterBinder} counts them); called on the exporter's or a session's thread. */
@FunctionalInterface
public interface ExportListener {

    void exported(ExportStatus status);
}
