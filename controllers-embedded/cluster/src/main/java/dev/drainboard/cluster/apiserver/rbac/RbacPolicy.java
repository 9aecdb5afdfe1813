package dev.drainboard.cluster.apiserver.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/** The stored RBAC objects the authorizer reads (the API server's store). */
public interface RbacPolicy {

    List<ObjectNode> clusterRoleBindings();

    List<ObjectNode> roleBindings(String namespace);

    /** null when there is none. */
    ObjectNode clusterRole(String name);

    /** null when there is none. */
    ObjectNode role(String namespace, String name);
}
