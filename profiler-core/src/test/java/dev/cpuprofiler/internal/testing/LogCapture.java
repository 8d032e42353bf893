package dev.cpuprofiler.internal.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures everything logged under {@code dev.cpuprofiler} at DEBUG while open. */
public final class LogCapture implements AutoCloseable {

    private final Logger logger = (Logger) LoggerFactory.getLogger("dev.cpuprofiler");
    private final Level previous = logger.getLevel();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public LogCapture() {
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(Level.DEBUG);
    }

    public List<String> messages() {
        synchronized (appender) { // AppenderBase.doAppend adds under the appender's own lock
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    public List<String> messages(Level level) {
        synchronized (appender) { // AppenderBase.doAppend adds under the appender's own lock
            return appender.list.stream().filter(e -> e.getLevel() == level)
                    .map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    public long count(String fragment) {
        return messages().stream().filter(m -> m.contains(fragment)).count();
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setLevel(previous);
    }
}
