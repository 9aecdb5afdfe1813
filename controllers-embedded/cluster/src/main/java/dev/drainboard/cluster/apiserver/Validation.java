package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.validation.FieldError;
import dev.drainboard.validation.GoStrings;
import dev.drainboard.cluster.apiserver.validation.NameRule;
import dev.drainboard.cluster.apiserver.validation.ObjectMetaValidation;
import dev.drainboard.cluster.apiserver.validation.WebhookConfigurationValidation;

import java.util.ArrayList;
import java.util.List;

/**
 * The validation every object goes through, built-in or custom, composed as kube-apiserver's generic registry does
 * (apiserver's pkg/registry/rest/create.go and update.go, v1.32): on create the resource's strategy (its metadata with
 * the resource's name rule, then its own fields) and, once that passes, the common metadata rules; on update the
 * common rules, the metadata update rules and the strategy's update validation together, so that a bad label is one
 * message with the causes kube-apiserver lists. Any error is a 422 Invalid and nothing is stored.
 */
final class Validation {

    private Validation() {
    }

    /** BeforeCreate's validation of an object whose name is already generated. */
    static void create(ResourceType type, ObjectNode object) {
        List<FieldError> errors = new ArrayList<>();
        if (isWebhookConfiguration(type)) {
            errors.addAll(WebhookConfigurationValidation.validate(object, null, isMutating(type)));
        } else {
            errors.addAll(ObjectMetaValidation.validate(object, type.namespaced(), NameRule.forResource(type.group(), type.plural())));
        }
        throwIfAny(type, object, errors);
        throwIfAny(type, object, ObjectMetaValidation.validate(object, type.namespaced(), NameRule.PATH_SEGMENT));
    }

    /** BeforeUpdate's validation: {@code object} is the desired state, {@code old} the stored one. */
    static void update(ResourceType type, ObjectNode object, ObjectNode old) {
        ObjectNode desired = withIdentityOf(type, object, old);
        List<FieldError> errors = new ArrayList<>(ObjectMetaValidation.validate(desired, type.namespaced(), NameRule.PATH_SEGMENT));
        errors.addAll(ObjectMetaValidation.validateUpdate(desired, old));
        if (isWebhookConfiguration(type)) {
            errors.addAll(WebhookConfigurationValidation.validate(desired, old, isMutating(type)));
        } else {
            // what each resource's ValidateUpdate starts with: ValidateObjectMetaUpdate
            errors.addAll(ObjectMetaValidation.validateUpdate(desired, old));
        }
        if ((type == BuiltinResources.ROLE_BINDINGS || type == BuiltinResources.CLUSTER_ROLE_BINDINGS)
                && !desired.path("roleRef").equals(old.path("roleRef"))) {
            // pkg/registry/rbac/{rolebinding,clusterrolebinding}/strategy.go: a binding's role is fixed; make a new one
            JsonNode ref = desired.path("roleRef");
            errors.add(FieldError.invalid("roleRef", new FieldError.GoValue("rbac.RoleRef{APIGroup:"
                    + GoStrings.quote(ref.path("apiGroup").asText("")) + ", Kind:" + GoStrings.quote(ref.path("kind").asText(""))
                    + ", Name:" + GoStrings.quote(ref.path("name").asText("")) + "}"), "cannot change roleRef"));
        }
        throwIfAny(type, desired, errors);
    }

    /**
     * What BeforeUpdate sets before validating, because a request cannot change it: the generation, uid, creation and
     * deletion timestamps (and, as the store does, the name and namespace).
     */
    private static ObjectNode withIdentityOf(ResourceType type, ObjectNode object, ObjectNode old) {
        if (sameIdentity(type, object, old)) {
            return object; // the usual case: a read-modify-write of the stored object
        }
        ObjectNode copy = object.deepCopy();
        ObjectNode meta = Json.metadata(copy);
        com.fasterxml.jackson.databind.JsonNode oldMeta = old.path("metadata");
        for (String field : new String[] {"name", "namespace", "uid", "creationTimestamp", "generation"}) {
            if (oldMeta.has(field)) {
                meta.set(field, oldMeta.get(field));
            } else {
                meta.remove(field);
            }
        }
        if (oldMeta.has("deletionTimestamp")) {
            meta.set("deletionTimestamp", oldMeta.get("deletionTimestamp"));
        }
        if (oldMeta.has("deletionGracePeriodSeconds") && !meta.has("deletionGracePeriodSeconds")) {
            meta.set("deletionGracePeriodSeconds", oldMeta.get("deletionGracePeriodSeconds"));
        }
        if (!type.namespaced()) {
            meta.remove("namespace");
        }
        return copy;
    }

    private static boolean sameIdentity(ResourceType type, ObjectNode object, ObjectNode old) {
        com.fasterxml.jackson.databind.JsonNode meta = object.path("metadata");
        com.fasterxml.jackson.databind.JsonNode oldMeta = old.path("metadata");
        for (String field : new String[] {"name", "namespace", "uid", "creationTimestamp", "generation", "deletionTimestamp",
                "deletionGracePeriodSeconds"}) {
            if (!java.util.Objects.equals(meta.get(field), oldMeta.get(field))) {
                return false;
            }
        }
        return true;
    }

    private static void throwIfAny(ResourceType type, ObjectNode object, List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiException.invalidFields(type, Json.name(object), errors);
        }
    }

    private static boolean isWebhookConfiguration(ResourceType type) {
        return type == BuiltinResources.VALIDATING_WEBHOOK_CONFIGURATIONS || isMutating(type);
    }

    private static boolean isMutating(ResourceType type) {
        return type == BuiltinResources.MUTATING_WEBHOOK_CONFIGURATIONS;
    }
}
