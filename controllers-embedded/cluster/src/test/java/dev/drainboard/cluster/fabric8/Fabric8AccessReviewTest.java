package dev.drainboard.cluster.fabric8;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** "May I?" — fabric8's SelfSubjectAccessReview against the embedded cluster, whose token holder may do everything. */
class Fabric8AccessReviewTest {

    private static Fabric8Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aResourceReviewIsAllowedAndEchoesTheQuestion() {
        SelfSubjectAccessReview answer = cluster.client().authorization().v1().selfSubjectAccessReview()
                .create(new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
                        .withVerb("create").withResource("pods").withSubresource("eviction").withNamespace("demo")
                        .endResourceAttributes().endSpec().build());

        assertThat(answer.getStatus().getAllowed()).isTrue();
        assertThat(answer.getStatus().getReason()).isNotBlank();
        assertThat(answer.getSpec().getResourceAttributes().getSubresource()).isEqualTo("eviction");
        assertThat(answer.getSpec().getResourceAttributes().getNamespace()).isEqualTo("demo");
    }

    @Test
    void aReviewAskingNothingIsInvalid() {
        assertThatThrownBy(() -> cluster.client().authorization().v1().selfSubjectAccessReview()
                .create(new SelfSubjectAccessReviewBuilder().withNewSpec().endSpec().build()))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(e.getStatus().getMessage()).contains("exactly one of nonResourceAttributes or resourceAttributes");
                });
    }
}
