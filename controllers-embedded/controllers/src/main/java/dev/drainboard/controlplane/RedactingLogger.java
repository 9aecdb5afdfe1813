package dev.drainboard.controlplane;

import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

import java.io.Serial;

/** An slf4j logger that formats each message, takes credentials out of it ({@link Redaction}), and hands it on. */
final class RedactingLogger extends LegacyAbstractLogger {

    @Serial
    private static final long serialVersionUID = 1L;

    private final transient Logger delegate;

    RedactingLogger(Logger delegate) {
        this.delegate = delegate;
        this.name = delegate.getName();
    }

    @Override
    public boolean isTraceEnabled() {
        return delegate.isTraceEnabled();
    }

    @Override
    public boolean isDebugEnabled() {
        return delegate.isDebugEnabled();
    }

    @Override
    public boolean isInfoEnabled() {
        return delegate.isInfoEnabled();
    }

    @Override
    public boolean isWarnEnabled() {
        return delegate.isWarnEnabled();
    }

    @Override
    public boolean isErrorEnabled() {
        return delegate.isErrorEnabled();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                               Throwable throwable) {
        String message = Redaction.redact(MessageFormatter.basicArrayFormat(messagePattern, arguments));
        switch (level) {
            case TRACE -> delegate.trace(marker, message, throwable);
            case DEBUG -> delegate.debug(marker, message, throwable);
            case INFO -> delegate.info(marker, message, throwable);
            case WARN -> delegate.warn(marker, message, throwable);
            case ERROR -> delegate.error(marker, message, throwable);
        }
    }
}
