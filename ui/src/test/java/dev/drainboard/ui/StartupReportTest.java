package dev.drainboard.ui;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The process age behind the "first frame after N ms" line, from /proc/self/stat and /proc/uptime. */
class StartupReportTest {

    private static String stat(String comm, long startTicks) {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
        // cstime priority nice threads itrealvalue starttime vsize ...
        return "4242 (" + comm + ") S 1 4242 4242 0 -1 4194560 100 0 0 0 5 2 0 0 20 0 30 0 " + startTicks
                + " 123456789 2000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
    }

    @ParameterizedTest(name = "{0}, started at tick {1}, uptime {2} -> {3} ms")
    @CsvSource(delimiter = '|', value = {
            "java             | 1069074 | 10691.82 8502.43 | 1080",
            "drainboard       | 1069074 | 10690.74 8502.43 | 0",
            "Web Content (x)  | 500     | 6.25 1.00        | 1250",
            "a) b             | 100     | 2.00 1.00        | 1000",
    })
    void theAgeIsUptimeMinusTheStartTick(String comm, long startTicks, String uptime, long expectedMillis) {
        assertThat(StartupReport.processAgeMillis(stat(comm, startTicks), uptime)).hasValue(expectedMillis);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no closing parenthesis | 4242 java S 1 2 3",
            "too few fields         | 4242 (java) S 1 2 3",
            "started in the future  | STAT_FUTURE",
    })
    void unreadableOrImpossibleFiguresGiveNoAge(String why, String stat) {
        String text = stat.equals("STAT_FUTURE") ? stat("java", 2_000_000) : stat;

        assertThat(StartupReport.processAgeMillis(text, "10.00 5.00")).isEqualTo(OptionalLong.empty());
    }

    @ParameterizedTest(name = "uptime \"{0}\"")
    @CsvSource(delimiter = '|', value = {"''", "abc 1.0"})
    void anUnreadableUptimeGivesNoAge(String uptime) {
        assertThat(StartupReport.processAgeMillis(stat("java", 100), uptime)).isEqualTo(OptionalLong.empty());
    }

    @Test
    void cpuIsUserAndSystemTicksOfProcSelfStat() {
        // pid (comm with spaces) state ppid … utime=250 stime=37 (fields 14 and 15)
        String stat = "4242 (java (main)) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 37 0 0 20 0 30 0 12345 0 0";
        assertThat(StartupReport.cpuMillis(stat)).hasValue(2870);
        assertThat(StartupReport.cpuMillis("garbage")).isEmpty();
    }

    @Test
    void theDemoMilestoneIsAskedForWithNodesAndVmis() {
        assertThat(StartupReport.expected("4,12")).containsExactly(4, 12);
        assertThat(StartupReport.expected(null)).isNull();
        assertThat(StartupReport.expected("4")).isNull();
        assertThat(StartupReport.expected("a,b")).isNull();
    }
}
