package dev.drainboard.controller.informers;

import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The VMIM cache plus the VMIMs this control plane itself just wrote (created, or patched to a new phase) that the
 * cache has not shown yet — a mutation cache, as client-go keeps for the same reason.
 *
 * <p>Migration slots are handed over through VMIMs: one ends, the next one starts. The evacuation controller counts
 * the slots and the migration controller starts the migrations; both in this process. Reading each other's writes
 * from here instead of waiting for the watch to bring them back saves one API round trip per step of a hand-over,
 * which with two-second migrations is several percent of a drain. Listeners hear of every write at once (and the
 * informer's own event later, as usual: the handlers only queue keys, so hearing twice is harmless).
 *
 * <p>An entry is dropped as soon as the cache holds the same or a newer resourceVersion of the object, or the object
 * is deleted. Resource versions are compared as numbers (as every apiserver in practice issues them); one that does
 * not parse leaves the cache in charge.
 */
public final class FreshMigrations {

    private final SharedIndexInformer<VirtualMachineInstanceMigration> cache;
    private final Map<String, VirtualMachineInstanceMigration> written = new ConcurrentHashMap<>();
    private final List<Consumer<VirtualMachineInstanceMigration>> listeners = new CopyOnWriteArrayList<>();

    FreshMigrations(SharedIndexInformer<VirtualMachineInstanceMigration> cache) {
        this.cache = cache;
        cache.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(VirtualMachineInstanceMigration m) {
                caughtUp(m);
            }

            @Override
            public void onUpdate(VirtualMachineInstanceMigration before, VirtualMachineInstanceMigration after) {
                caughtUp(after);
            }

            @Override
            public void onDelete(VirtualMachineInstanceMigration m, boolean finalStateUnknown) {
                written.remove(Keys.of(m));
            }
        });
    }

    /** Hears of every VMIM this process writes, right after the API accepted the write. */
    public void addWriteListener(Consumer<VirtualMachineInstanceMigration> listener) {
        listeners.add(listener);
    }

    /** The API answered a create or patch of a VMIM with {@code answer}: remember it until the cache has it. */
    public void written(VirtualMachineInstanceMigration answer) {
        if (answer == null || answer.getMetadata() == null) {
            return;
        }
        String key = Keys.of(answer);
        written.compute(key, (k, known) -> newer(answer, known) && newer(answer, cache.getStore().getByKey(k)) ? answer : known);
        listeners.forEach(l -> l.accept(answer));
    }

    /** The freshest known state of the VMIM, or null. */
    public VirtualMachineInstanceMigration get(String key) {
        VirtualMachineInstanceMigration cached = cache.getStore().getByKey(key);
        VirtualMachineInstanceMigration own = written.get(key);
        return own != null && newer(own, cached) ? own : cached;
    }

    /** Every VMIM, the freshest state of each. */
    public List<VirtualMachineInstanceMigration> list() {
        Map<String, VirtualMachineInstanceMigration> all = new HashMap<>();
        cache.getStore().list().forEach(m -> all.put(Keys.of(m), m));
        merge(all, null);
        return new ArrayList<>(all.values());
    }

    /** The VMIMs naming this VMI ({@code namespace/name}), the freshest state of each. */
    public List<VirtualMachineInstanceMigration> of(String vmiKey) {
        Map<String, VirtualMachineInstanceMigration> all = new HashMap<>();
        cache.getIndexer().byIndex(SharedInformers.MIGRATIONS_BY_VMI, vmiKey).forEach(m -> all.put(Keys.of(m), m));
        merge(all, vmiKey);
        return new ArrayList<>(all.values());
    }

    private void merge(Map<String, VirtualMachineInstanceMigration> into, String vmiKey) {
        for (VirtualMachineInstanceMigration own : written.values()) {
            if (vmiKey != null && !vmiKey.equals(vmiKeyOf(own))) {
                continue;
            }
            String key = Keys.of(own);
            if (newer(own, into.get(key))) {
                into.put(key, own);
            }
        }
    }

    /** How many own writes the cache has yet to show. */
    int remembered() {
        return written.size();
    }

    private static String vmiKeyOf(VirtualMachineInstanceMigration m) {
        String vmi = m.getSpec() == null ? null : m.getSpec().getVmiName();
        return vmi == null ? null : Keys.of(m.getMetadata().getNamespace(), vmi);
    }

    private void caughtUp(VirtualMachineInstanceMigration seen) {
        written.computeIfPresent(Keys.of(seen), (k, own) -> newer(own, seen) ? own : null);
    }

    /** {@code a} is a later version of its object than {@code b} (true when {@code b} is unknown). */
    static boolean newer(VirtualMachineInstanceMigration a, VirtualMachineInstanceMigration b) {
        if (b == null) {
            return true;
        }
        if (!Objects.equals(a.getMetadata().getUid(), b.getMetadata().getUid())) {
            return false; // another incarnation under the same name: the cache knows best
        }
        Long va = version(a);
        Long vb = version(b);
        return va != null && vb != null && va > vb;
    }

    private static Long version(VirtualMachineInstanceMigration m) {
        try {
            return Long.parseLong(m.getMetadata().getResourceVersion());
        } catch (RuntimeException e) {
            return null;
        }
    }
}
