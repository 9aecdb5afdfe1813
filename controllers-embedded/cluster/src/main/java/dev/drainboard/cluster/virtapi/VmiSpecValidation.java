package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The part of virt-api's VMI spec validation that a drain depends on, with KubeVirt's causes, field paths and order
 * (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-create-admitter.go {@code ValidateVirtualMachineInstanceSpec},
 * pkg/network/admitter): memory requests and limits, the guest memory against the limit (only under the {@code Stage}
 * rollout strategy, as KubeVirt), the networks and their interfaces (one pod network, one source per network, every
 * network with an interface of its name and the other way round, unique names, exactly one binding per interface,
 * masquerade only on the pod network, bridge on the pod network only where the KubeVirt CR permits it, interface name
 * syntax and model) and the eviction strategy. The VMI create admitter adds the mandatory memory check; the VM admitter
 * runs the same spec checks on the template ({@code spec.template.spec}).
 */
@Pure
public final class VmiSpecValidation {

    private static final Set<String> EVICTION_STRATEGIES = Set.of("LiveMigrate", "LiveMigrateIfPossible", "None", "External");
    private static final Set<String> INTERFACE_MODELS = Set.of("e1000", "e1000e", "igb", "ne2k_pci", "pcnet", "rtl8139", "virtio");
    private static final Pattern INTERFACE_NAME = Pattern.compile("^[A-Za-z0-9-_]+$");
    private static final BigDecimal ONE_M = BigDecimal.valueOf(1_000_000);
    private static final String NOT_FOUND = "%s '%s' not found.";

    private VmiSpecValidation() {
    }

    /** {@code ValidateVirtualMachineInstanceSpec}'s drain-relevant checks; {@code field} is the spec's path. */
    public static List<Cause> validate(String field, JsonNode spec, VirtApiConfig config) {
        List<Cause> causes = new ArrayList<>();
        memory(field, spec, config, causes);
        networks(field, spec, config, causes);
        JsonNode strategy = spec.path("evictionStrategy");
        if (strategy.isTextual() && !EVICTION_STRATEGIES.contains(strategy.asText())) {
            causes.add(Cause.invalid(field + ".evictionStrategy is set with an unrecognized option: " + strategy.asText(),
                    field + ".evictionStrategy"));
        }
        return causes;
    }

    /** {@code ValidateVirtualMachineInstanceMandatoryFields}: some memory must be asked for (VMIs only). */
    public static List<Cause> mandatory(String field, JsonNode spec) {
        JsonNode domain = spec.path("domain");
        if (VmiDefaults.quantity(domain.path("resources").path("requests").path("memory")).signum() != 0) {
            return List.of();
        }
        JsonNode memory = domain.path("memory");
        if (memory.path("guest").isMissingNode() || memory.path("guest").isNull()) {
            if (memory.path("hugepages").isMissingNode() || memory.path("hugepages").isNull()) {
                return List.of(new Cause(Cause.REQUIRED, "no memory requested, at least one of '" + field
                        + ".domain.memory.guest', '" + field + ".domain.memory.hugepages.pageSize' or '" + field
                        + ".domain.resources.requests.memory' must be set", null));
            }
        }
        return List.of();
    }

    private static void memory(String field, JsonNode spec, VirtApiConfig config, List<Cause> causes) {
        JsonNode resources = spec.path("domain").path("resources");
        String requestPath = field + ".domain.resources.requests.memory";
        String limitPath = field + ".domain.resources.limits.memory";
        JsonNode requestNode = resources.path("requests").path("memory");
        JsonNode limitNode = resources.path("limits").path("memory");
        BigDecimal request = VmiDefaults.quantity(requestNode);
        BigDecimal limit = VmiDefaults.quantity(limitNode);
        if (request.signum() < 0) {
            causes.add(Cause.invalid(requestPath + " '" + shown(requestNode) + "': must be greater than or equal to 0.", requestPath));
        } else if (request.signum() > 0 && request.compareTo(ONE_M) < 0) {
            causes.add(Cause.invalid(requestPath + " '" + shown(requestNode) + "': must be greater than or equal to 1M.", requestPath));
        }
        if (limit.signum() < 0) {
            causes.add(Cause.invalid(limitPath + " '" + shown(limitNode) + "': must be greater than or equal to 0.", limitPath));
        }
        if (limit.signum() > 0 && request.compareTo(limit) > 0) {
            causes.add(Cause.invalid(requestPath + " '" + shown(requestNode) + "' is greater than " + limitPath + " '"
                    + shown(limitNode) + "'", requestPath));
        }
        JsonNode guestNode = spec.path("domain").path("memory").path("guest");
        if (!config.liveUpdateRollout() && !guestNode.isMissingNode() && !guestNode.isNull()) {
            BigDecimal guest = VmiDefaults.quantity(guestNode);
            if (limit.compareTo(guest) < 0 && limit.signum() != 0) {
                String guestPath = field + ".domain.memory.guest";
                causes.add(Cause.invalid(guestPath + " '" + shown(guestNode) + "' must be equal to or less than the memory limit "
                        + limitPath + " '" + shown(limitNode) + "'", guestPath));
            }
        }
    }

    private static void networks(String field, JsonNode spec, VirtApiConfig config, List<Cause> causes) {
        JsonNode networks = spec.path("networks");
        JsonNode interfaces = spec.path("domain").path("devices").path("interfaces");
        String interfacesPath = field + ".domain.devices.interfaces";
        Map<String, JsonNode> networksByName = new HashMap<>();
        int podNetworks = 0;
        int multusDefaults = 0;
        for (JsonNode n : networks) {
            networksByName.putIfAbsent(n.path("name").asText(""), n);
            podNetworks += present(n, "pod") ? 1 : 0;
            multusDefaults += present(n, "multus") && n.path("multus").path("default").asBoolean(false) ? 1 : 0;
        }
        // validateSinglePodNetwork
        if (podNetworks > 1) {
            causes.add(new Cause(Cause.DUPLICATE, "more than one interface is connected to a pod network in " + field + ".interfaces",
                    field + ".interfaces"));
        }
        if (multusDefaults > 1) {
            causes.add(Cause.invalid("Multus CNI should only have one default network", field + ".networks"));
        }
        if (podNetworks > 0 && multusDefaults > 0) {
            causes.add(Cause.invalid("Pod network cannot be defined when Multus default network is defined", field + ".networks"));
        }
        // validateSingleNetworkSource
        for (int i = 0; i < networks.size(); i++) {
            JsonNode n = networks.get(i);
            int sources = (present(n, "pod") ? 1 : 0) + (present(n, "multus") ? 1 : 0) + (present(n, "resourceClaim") ? 1 : 0);
            if (sources == 0) {
                causes.add(new Cause(Cause.REQUIRED, "should have a network type", field + ".networks[" + i + "]"));
            } else if (sources > 1) {
                causes.add(new Cause(Cause.REQUIRED, "should have only one network type", field + ".networks[" + i + "]"));
            }
        }
        // validateMultusNetworkSource: the first one only
        for (int i = 0; i < networks.size(); i++) {
            JsonNode n = networks.get(i);
            if (present(n, "multus") && n.path("multus").path("networkName").asText("").isEmpty()) {
                causes.add(new Cause(Cause.REQUIRED, "CNI delegating plugin must have a networkName", field + ".networks[" + i + "]"));
                break;
            }
        }
        // validateInterfaceBinding
        for (int i = 0; i < interfaces.size(); i++) {
            JsonNode iface = interfaces.get(i);
            String name = iface.path("name").asText("");
            JsonNode network = networksByName.get(name);
            boolean onPod = network != null && present(network, "pod");
            int bindings = 0;
            for (String binding : new String[] {"bridge", "masquerade", "sriov", "passtBinding", "binding"}) {
                bindings += present(iface, binding) ? 1 : 0;
            }
            if (bindings != 1) {
                causes.add(Cause.invalid("logical " + name + " interface must have exactly one binding method or binding plugin",
                        interfacesPath + "[" + i + "]"));
            }
            if (present(iface, "masquerade") && !onPod) {
                causes.add(Cause.invalid("Masquerade interface only implemented with pod network", interfacesPath + "[" + i + "].name"));
            }
            if (present(iface, "bridge") && onPod && !config.permitBridgeInterfaceOnPodNetwork()) {
                causes.add(Cause.invalid("Bridge on pod network configuration is not enabled under kubevirt-config",
                        interfacesPath + "[" + i + "].name"));
            }
        }
        // validateNetworkNameUnique
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < networks.size(); i++) {
            String name = networks.get(i).path("name").asText("");
            if (!seen.add(name)) {
                causes.add(new Cause(Cause.DUPLICATE, "Network with name \"" + name + "\" already exists, every network must have a unique name",
                        field + ".networks[" + i + "].name"));
            }
        }
        // validateNetworksAssignedToInterfaces
        Set<String> interfaceNames = new HashSet<>();
        interfaces.forEach(i -> interfaceNames.add(i.path("name").asText("")));
        for (int i = 0; i < networks.size(); i++) {
            String name = networks.get(i).path("name").asText("");
            if (!interfaceNames.contains(name)) {
                String path = field + ".networks[" + i + "].name";
                causes.add(new Cause(Cause.REQUIRED, NOT_FOUND.formatted(path, name), path));
            }
        }
        // validateInterfaceNameUnique
        seen.clear();
        for (int i = 0; i < interfaces.size(); i++) {
            if (!seen.add(interfaces.get(i).path("name").asText(""))) {
                causes.add(new Cause(Cause.DUPLICATE, "Only one interface can be connected to one specific network",
                        interfacesPath + "[" + i + "].name"));
            }
        }
        // validateInterfacesAssignedToNetworks
        for (int i = 0; i < interfaces.size(); i++) {
            String name = interfaces.get(i).path("name").asText("");
            if (!networksByName.containsKey(name)) {
                String path = interfacesPath + "[" + i + "].name";
                causes.add(Cause.invalid(NOT_FOUND.formatted(path, name), path));
            }
        }
        // validateInterfacesFields: name syntax, model
        for (int i = 0; i < interfaces.size(); i++) {
            JsonNode iface = interfaces.get(i);
            String path = interfacesPath + "[" + i + "]";
            if (!INTERFACE_NAME.matcher(iface.path("name").asText("")).matches()) {
                causes.add(Cause.invalid("Network interface name can only contain alphabetical characters, numbers, dashes (-) or underscores (_)",
                        path + ".name"));
            }
            String model = iface.path("model").asText("");
            if (!model.isEmpty() && !INTERFACE_MODELS.contains(model)) {
                causes.add(new Cause(Cause.NOT_SUPPORTED, "interface " + path + ".name uses model " + model + " that is not supported.",
                        path + ".model"));
            }
        }
    }

    /** A Go pointer field that is set: present and not null. */
    private static boolean present(JsonNode node, String field) {
        return node.has(field) && !node.get(field).isNull();
    }

    private static String shown(JsonNode quantity) {
        return quantity.isMissingNode() || quantity.isNull() ? "0" : quantity.asText();
    }
}
