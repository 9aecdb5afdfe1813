package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Orders a merged list the way kube-apiserver does: the items the patch names follow the patch's order (or
 * its {@code $setElementOrder}), the items only the server had keep their relative order, and the two runs
 * are interleaved using the server's original positions. A patch item the server did not have is placed
 * before any server-only item it is compared with, which is why a strategic merge patch prepends new items.
 */
final class ListOrder {

    private final Function<JsonNode, JsonNode> identity;

    private ListOrder(Function<JsonNode, JsonNode> identity) {
        this.identity = identity;
    }

    /** For lists of primitives, whose items are their own identity. */
    static ListOrder ofPrimitives() {
        return new ListOrder(item -> item);
    }

    /** For lists of objects identified by their merge key. */
    static ListOrder byKey(String mergeKey) {
        return new ListOrder(item -> item.get(mergeKey));
    }

    /**
     * @param merged      the merged items, in any order
     * @param patchOrder  identities in the order the patch wants
     * @param serverOrder identities in the order of the list before the patch
     */
    List<JsonNode> arrange(List<JsonNode> merged, List<JsonNode> patchOrder, List<JsonNode> serverOrder) {
        List<JsonNode> patchItems = new ArrayList<>();
        List<JsonNode> serverOnly = new ArrayList<>();
        for (JsonNode item : merged) {
            (positionIn(patchOrder, item) >= 0 ? patchItems : serverOnly).add(item);
        }
        patchItems.sort(byPositionIn(patchOrder));
        serverOnly.sort(byPositionIn(serverOrder));
        return interleave(serverOnly, patchItems, serverOrder);
    }

    private List<JsonNode> interleave(List<JsonNode> serverOnly, List<JsonNode> patchItems, List<JsonNode> serverOrder) {
        List<JsonNode> result = new ArrayList<>(serverOnly.size() + patchItems.size());
        int s = 0;
        int p = 0;
        while (s < serverOnly.size() || p < patchItems.size()) {
            if (p == patchItems.size()) {
                result.add(serverOnly.get(s++));
            } else if (s == serverOnly.size()) {
                result.add(patchItems.get(p++));
            } else {
                int serverPosition = positionIn(serverOrder, serverOnly.get(s));
                int patchItemPosition = positionIn(serverOrder, patchItems.get(p));
                boolean serverItemFirst = serverPosition >= 0 && patchItemPosition >= 0 && serverPosition < patchItemPosition;
                result.add(serverItemFirst ? serverOnly.get(s++) : patchItems.get(p++));
            }
        }
        return result;
    }

    /** Stable order by position in {@code order}; items missing from it go last. */
    private Comparator<JsonNode> byPositionIn(List<JsonNode> order) {
        return Comparator.comparingInt(item -> {
            int position = positionIn(order, item);
            return position < 0 ? Integer.MAX_VALUE : position;
        });
    }

    private int positionIn(List<JsonNode> identities, JsonNode item) {
        return JsonValues.indexOf(identities, identity.apply(item));
    }
}
