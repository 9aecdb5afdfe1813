package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.cluster.apiserver.store.WatchSink;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Streams a watch: the store hands events over under its lock, a virtual thread per watch turns them
 * into newline-delimited JSON frames ({"type":…,"object":…}) in commit order. An object's JSON is
 * shared by every watch sending it; frames that queued up while one was sent go out together.
 */
final class WatchHandler {

    private static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";

    private final ObjectStore store;
    private final ResourceHandler resources;
    private final ScheduledExecutorService timers;
    private final SharedEncodings encodings = new SharedEncodings();

    WatchHandler(ObjectStore store, ResourceHandler resources, ScheduledExecutorService timers) {
        this.store = store;
        this.resources = resources;
        this.timers = timers;
    }

    void watch(ApiRequest request, ResourcePath path, ResponseChannel channel) {
        ResourceType type = path.type();
        Predicate<ObjectNode> filter = resources.filter(request, type);
        if (!path.isCollection()) {
            String name = path.name();
            Predicate<ObjectNode> base = filter;
            filter = o -> name.equals(Json.name(o)) && base.test(o);
        }
        String rvParam = request.param("resourceVersion");
        boolean sendInitial = request.flag("sendInitialEvents");
        Long from = null;
        if (!sendInitial && rvParam != null && !rvParam.isEmpty() && !rvParam.equals("0")) {
            try {
                from = Long.parseLong(rvParam);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid resource version: " + rvParam);
            }
        }
        boolean bookmarks = request.flag("allowWatchBookmarks");
        boolean table = request.wantsTable();

        Stream stream = new Stream(request, type, channel, bookmarks, table);
        channel.startStream(table ? "application/json;as=Table;v=v1;g=meta.k8s.io" : "application/json");
        ObjectStore.Subscription subscription;
        try {
            subscription = store.watch(ResourceHandler.stored(type), path.namespace(), filter, from, stream);
        } catch (ApiException e) {
            // kube-apiserver answers an expired resourceVersion with an ERROR event, not an HTTP error.
            stream.sendError(e);
            channel.endStream();
            return;
        }
        if (sendInitial && bookmarks) {
            stream.queue.add(new Frame(null, store.resourceVersion(), true));
        }
        Thread pump = Thread.ofVirtual().name("watch-" + type.plural()).start(stream::pump);
        channel.onClose(() -> {
            subscription.close();
            pump.interrupt();
        });
        String timeout = request.param("timeoutSeconds");
        if (timeout != null && !timeout.isEmpty()) {
            try {
                long seconds = Long.parseLong(timeout);
                timers.schedule(channel::endStream, seconds, TimeUnit.SECONDS);
            } catch (NumberFormatException ignored) {
                // a malformed timeout simply means no timeout
            }
        }
    }

    private record Frame(WatchEvent event, long bookmarkRv, boolean initialEventsEnd) {
    }

    private final class Stream implements WatchSink {
        private final LinkedBlockingQueue<Frame> queue = new LinkedBlockingQueue<>();
        private final ApiRequest request;
        private final ResourceType type;
        private final ResponseChannel channel;
        private final boolean bookmarks;
        private final boolean table;

        Stream(ApiRequest request, ResourceType type, ResponseChannel channel, boolean bookmarks, boolean table) {
            this.request = request;
            this.type = type;
            this.channel = channel;
            this.bookmarks = bookmarks;
            this.table = table;
        }

        @Override
        public void onEvent(WatchEvent event) {
            queue.add(new Frame(event, 0, false));
        }

        @Override
        public void onBookmark(long resourceVersion) {
            if (bookmarks) {
                queue.add(new Frame(null, resourceVersion, false));
            }
        }

        void pump() {
            List<Frame> ready = new ArrayList<>();
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    ready.add(queue.take());
                    queue.drainTo(ready);
                    channel.sendFrame(encode(ready));
                    ready.clear();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private byte[] encode(List<Frame> frames) {
            if (frames.size() == 1) {
                return encode(frames.getFirst());
            }
            ByteArrayOutputStream lines = new ByteArrayOutputStream();
            for (Frame frame : frames) {
                lines.writeBytes(encode(frame));
            }
            return lines.toByteArray();
        }

        private byte[] encode(Frame frame) {
            if (frame.event() != null && !table) {
                // {"type":"MODIFIED","object":{…}}\n around the shared JSON of the object
                byte[] head = ("{\"type\":\"" + frame.event().type().name() + "\",\"object\":").getBytes(StandardCharsets.US_ASCII);
                byte[] object = encodings.json(type, frame.event().object());
                byte[] line = new byte[head.length + object.length + 2];
                System.arraycopy(head, 0, line, 0, head.length);
                System.arraycopy(object, 0, line, head.length, object.length);
                line[line.length - 2] = '}';
                line[line.length - 1] = '\n';
                return line;
            }
            ObjectNode out = Json.object();
            if (frame.event() == null) {
                out.put("type", "BOOKMARK");
                ObjectNode object = out.putObject("object");
                object.put("kind", type.kind());
                object.put("apiVersion", type.apiVersion());
                ObjectNode meta = object.putObject("metadata");
                meta.put("resourceVersion", Long.toString(frame.bookmarkRv()));
                if (frame.initialEventsEnd()) {
                    meta.putObject("annotations").put(INITIAL_EVENTS_END, "true");
                }
            } else {
                out.put("type", frame.event().type().name());
                ObjectNode object = ResourceHandler.inVersion(type, frame.event().object());
                out.set("object", table ? resources.table(request, type, List.of(object), Json.object()) : object);
            }
            byte[] json = Json.bytes(out);
            byte[] line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            return line;
        }

        void sendError(ApiException e) {
            ObjectNode out = Json.object();
            out.put("type", "ERROR");
            out.set("object", e.toStatus());
            byte[] json = Json.bytes(out);
            channel.sendFrame((new String(json, StandardCharsets.UTF_8) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }
}
