package dev.drainboard.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

@DisplayName("the previews of nodes drained together are read once for all their drains")
class SharedPreviewsTest {

    @Test
    void fourDrainsReadTheClusterOnce() {
        AtomicInteger reads = new AtomicInteger();
        List<DrainPreview> answer = List.of();
        SharedPreviews previews = new SharedPreviews(() -> {
            reads.incrementAndGet();
            return answer;
        });

        List<CompletableFuture<List<DrainPreview>>> drains = IntStream.range(0, 4)
                .mapToObj(i -> CompletableFuture.supplyAsync(previews)).toList();

        assertThat(drains).allSatisfy(d -> assertThat(d.join()).isSameAs(previews.get()));
        assertThat(reads).hasValue(1);
    }

    @Test
    void aFailedReadFailsEveryDrainWithoutReadingAgain() {
        AtomicInteger reads = new AtomicInteger();
        SharedPreviews previews = new SharedPreviews(() -> {
            reads.incrementAndGet();
            throw new OpsException(OpsException.Kind.NOT_FOUND, "node node99 not found", null);
        });

        assertThatThrownBy(previews::get).isInstanceOf(OpsException.class).hasMessage("node node99 not found");
        assertThatThrownBy(previews::get).isInstanceOf(OpsException.class);
        assertThat(reads).hasValue(1);
    }
}
