package dev.cpuprofiler.sample.work;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.springframework.stereotype.Component;

/**
 * Builds a large report of random sales lines and sorts it by region, then amount (descending), then id:
 * the profile shows {@link #sortLargeReport(int)} over {@code TimSort} and the comparator chain.
 */
@Component
public class ReportSorter {

    /** The most lines one request may ask for. */
    public static final int MAX_SIZE = 2_000_000;

    private static final String[] REGIONS = {"north", "south", "east", "west", "central", "overseas"};

    private static final Comparator<ReportLine> REPORT_ORDER = Comparator.comparing(ReportLine::region)
            .thenComparing(Comparator.comparingLong(ReportLine::amountCents).reversed())
            .thenComparingLong(ReportLine::id);

    /** One line of the report. */
    public record ReportLine(long id, String region, long amountCents) {
    }

    /** What a sorted report looks like from afar. */
    public record ReportSummary(int lines, ReportLine first, ReportLine last) {
    }

    /** Sorts {@code size} random lines (the same lines for the same size) and summarizes the result. */
    public ReportSummary sortLargeReport(int size) {
        List<ReportLine> lines = randomLines(size);
        lines.sort(REPORT_ORDER);
        return new ReportSummary(lines.size(), lines.isEmpty() ? null : lines.get(0),
                lines.isEmpty() ? null : lines.get(lines.size() - 1));
    }

    private static List<ReportLine> randomLines(int size) {
        SplittableRandom random = new SplittableRandom(size);
        List<ReportLine> lines = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            lines.add(new ReportLine(i, REGIONS[random.nextInt(REGIONS.length)], random.nextLong(1_000_000)));
        }
        return lines;
    }
}
