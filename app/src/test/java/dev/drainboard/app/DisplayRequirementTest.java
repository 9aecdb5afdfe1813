package dev.drainboard.app;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DisplayRequirementTest {

    @ParameterizedTest(name = "{0} DISPLAY={1} WAYLAND_DISPLAY={2} glass={3}: missing={4}")
    @CsvSource(nullValues = "-", value = {
            "Linux,   -,    -,         -,        true",
            "Linux,   '',   '',        -,        true",
            "Linux,   :0,   -,         -,        false",
            "Linux,   -,    wayland-0, -,        false",
            "FreeBSD, -,    -,         -,        true",
            "Linux,   -,    -,         Monocle,  false",
            "Linux,   -,    -,         Headless, false",
            "Mac OS X, -,   -,         -,        false",
            "Windows 11, -, -,         -,        false",
    })
    void aWindowNeedsADisplayWhereGtkDrawsIt(String os, String display, String wayland, String glass, boolean missing) {
        Map<String, String> env = new HashMap<>();
        if (display != null) {
            env.put("DISPLAY", display);
        }
        if (wayland != null) {
            env.put("WAYLAND_DISPLAY", wayland);
        }
        assertThat(DisplayRequirement.missing(env, os, glass).isPresent()).isEqualTo(missing);
        DisplayRequirement.missing(env, os, glass).ifPresent(line -> assertThat(line)
                .isEqualTo("drainboard: the console needs a display (DISPLAY or WAYLAND_DISPLAY is not set);"
                        + " for the command line see ./drainboard --help"));
    }
}
