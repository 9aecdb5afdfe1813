package dev.drainboard.runtime;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The name a Drainboard writes into the Lease as holder: {@code user@host/pid-<pid>-<random>}.
 * An operator looking at the Lease sees whose desktop is running the controllers; the random
 * part keeps two processes with a recycled pid (or two runs in one JVM) apart.
 */
public final class LeaderIdentity {

    private static final SecureRandom RANDOM = new SecureRandom();

    private LeaderIdentity() {
    }

    public static String generate() {
        return of(System.getProperty("user.name", "unknown"), hostName(), ProcessHandle.current().pid(), randomSuffix());
    }

    static String of(String user, String host, long pid, String suffix) {
        return user + "@" + host + "/pid-" + pid + "-" + suffix;
    }

    private static String randomSuffix() {
        byte[] bytes = new byte[3];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown-host";
        }
    }
}
