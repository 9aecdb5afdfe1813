package dev.drainboard.app;

import picocli.CommandLine;

/** The version from the jar manifest, or "development" when run from classes. */
public final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Main.class.getPackage().getImplementationVersion();
        return new String[]{"drainboard " + (v == null ? "development" : v)};
    }
}
