package dev.cpuprofiler.autoconfigure.export;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A target's answer body, read up to {@link #LIMIT} bytes: more than the status message ever shows. At the limit the
 * exporter stops reading and cancels the body, which closes the connection instead of draining it, so a target
 * answering megabytes, or without end, costs at most this much heap and no more reading.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    static final int LIMIT = 4096;

    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final byte[] bytes = new byte[LIMIT];
    private int size;
    private Flow.Subscription subscription;

    static HttpResponse.BodyHandler<byte[]> handler() {
        return info -> new BoundedBody();
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            int n = Math.min(buffer.remaining(), LIMIT - size);
            buffer.get(bytes, size, n);
            size += n;
        }
        if (size == LIMIT) {
            subscription.cancel();
            body.complete(bytes.clone());
        } else {
            subscription.request(1);
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(Arrays.copyOf(bytes, size));
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }
}
