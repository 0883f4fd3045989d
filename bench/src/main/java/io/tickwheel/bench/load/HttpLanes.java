package io.tickwheel.bench.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The load tool's HTTP/1.1 client, lean enough not to be the bottleneck of a throughput run: Netty's HTTP codec on
 * {@code lanes} event loops (epoll where available, like the server; NIO elsewhere), keep-alive, no pipelining.
 *
 * <p><b>Connections.</b> Each lane owns its share of {@code maxConnections} ({@code maxConnections / lanes}, the
 * remainder to the first lanes), so the whole client never has more than {@code maxConnections} connections open and,
 * one request per connection at a time, never more requests on the wire: the same bound the load tool puts on every
 * target's operations in flight. A lane opens a connection only when a request finds none idle and it is below its
 * share; otherwise the request waits in the lane's queue (unbounded: callers bound their own requests in flight) for
 * the next connection that answers. A connection that the server closes, or that fails, fails the request on it (if
 * any) and frees its place; an idle connection to another address than a request's (after a server restart) is
 * closed and replaced.
 *
 * <p><b>Lanes.</b> A request made on a lane's event-loop thread (for instance the next request of a closed loop,
 * started from the completion of the previous one) stays on that lane without a thread hop; a request from any other
 * thread goes to the next lane in turn and is handed to its loop. With 2 lanes on 2 cores the client can use both,
 * as {@code wrk -t2} would; total concurrency stays {@code maxConnections}.
 *
 * <p><b>Per request</b> the caller passes a prepared {@link Request} (method, path, the fixed headers: built once,
 * shared) and the body bytes. {@link #send} checks the status only and discards an expected answer's body without
 * decoding it; any other status fails the future with an {@link IllegalStateException} naming method, path, status
 * and body, so the caller counts it as an error. {@link #call} completes with the body, {@link #status} with the
 * status. There is no timeout (the server always answers or closes). Futures complete on the lane's event loop, after
 * its connection was made free for the next request: callers must not block in them. Thread safe.
 */
final class HttpLanes implements AutoCloseable {

  /** Headers are built by us from fixed values: no validation per request. */
  private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

  /**
   * A prepared request: where to, method, path and fixed headers (Host, Content-Type, Authorization). Immutable
   * once built; one instance serves any number of concurrent requests.
   */
  static final class Request {
    final InetSocketAddress address;
    final HttpMethod method;
    final String uri;
    private final AsciiString[] headers; // name, value, name, value, ...

    /**
     * @param contentType the body's type, or null for a request without body; @param authorization the
     * Authorization header's value, or null
     */
    Request(InetSocketAddress address, String method, String uri, String contentType, String authorization) {
      this.address = address;
      this.method = HttpMethod.valueOf(method);
      this.uri = uri;
      AsciiString host = AsciiString.of(address.getHostString() + ":" + address.getPort());
      java.util.List<AsciiString> h = new java.util.ArrayList<>(6);
      h.add(HttpHeaderNames.HOST);
      h.add(host);
      if (contentType != null) {
        h.add(HttpHeaderNames.CONTENT_TYPE);
        h.add(AsciiString.of(contentType));
      }
      if (authorization != null) {
        h.add(HttpHeaderNames.AUTHORIZATION);
        h.add(AsciiString.of(authorization));
      }
      this.headers = h.toArray(new AsciiString[0]);
    }

    /** The same request to another path. */
    Request withUri(String newUri) {
      return new Request(this, newUri);
    }

    private Request(Request r, String newUri) {
      this.address = r.address;
      this.method = r.method;
      this.uri = newUri;
      this.headers = r.headers;
    }

    DefaultFullHttpRequest encode(ByteBuf body) {
      DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri, body, HEADERS,
          HEADERS);
      HttpHeaders h = req.headers();
      for (int i = 0; i < headers.length; i += 2) {
        h.add(headers[i], headers[i + 1]);
      }
      if (body.readableBytes() > 0 || method == HttpMethod.POST || method == HttpMethod.PUT) {
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
      }
      return req;
    }

    @Override
    public String toString() {
      return method + " " + uri;
    }
  }

  private final MultiThreadIoEventLoopGroup group;
  private final Class<? extends SocketChannel> channelType;
  private final Lane[] lanes;
  private final AtomicInteger next = new AtomicInteger();

  /**
   * @param lanes event loops, at least 1; more than {@code maxConnections} is reduced to it (a lane needs a connection)
   * @param maxConnections total HTTP/1.1 connections over all lanes, at least 1
   */
  HttpLanes(int lanes, int maxConnections) {
    if (lanes < 1 || maxConnections < 1) {
      throw new IllegalArgumentException("lanes " + lanes + " and maxConnections " + maxConnections + " must be >= 1");
    }
    int n = Math.min(lanes, maxConnections);
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    this.channelType = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    this.group = new MultiThreadIoEventLoopGroup(n, new DefaultThreadFactory("load-http", true), io);
    this.lanes = new Lane[n];
    java.util.Iterator<io.netty.util.concurrent.EventExecutor> loops = group.iterator();
    for (int i = 0; i < n; i++) {
      int share = maxConnections / n + (i < maxConnections % n ? 1 : 0);
      this.lanes[i] = new Lane((EventLoop) loops.next(), share);
    }
  }

  /** The number of lanes (event loops with their own connections). */
  int lanes() {
    return lanes.length;
  }

  /** {@code epoll} or {@code nio}. */
  String transport() {
    return channelType == EpollSocketChannel.class ? "epoll" : "nio";
  }

  /** Connections open or being opened now, over all lanes (for tests; a snapshot). */
  int openConnections() throws Exception {
    int sum = 0;
    for (Lane l : lanes) {
      sum += l.loop.submit(() -> l.open).get(5, TimeUnit.SECONDS);
    }
    return sum;
  }

  /**
   * One request whose answer body is not needed: completes (with null) when the whole answer with status
   * {@code expect} has arrived; fails on any other status (message: method, path, status, body) or connection error.
   *
   * @param body the request body (may be empty)
   */
  CompletableFuture<Void> send(Request request, byte[] body, int expect) {
    return start(new Exchange<>(request, body, expect, false));
  }

  /** As {@link #send}, but completes with the answer's body. */
  CompletableFuture<String> call(Request request, byte[] body, int expect) {
    return start(new Exchange<>(request, body, expect, true));
  }

  /** Any answer: completes with its status (the body is discarded); fails only on connection errors. */
  CompletableFuture<Integer> status(Request request) {
    return start(new Exchange<>(request, null, -1, false));
  }

  private <T> CompletableFuture<T> start(Exchange<T> x) {
    Lane lane = null;
    for (Lane l : lanes) {
      if (l.loop.inEventLoop()) {
        lane = l;
        break;
      }
    }
    if (lane != null) {
      lane.dispatch(x);
    } else {
      Lane l = lanes[Math.floorMod(next.getAndIncrement(), lanes.length)];
      try {
        l.loop.execute(() -> l.dispatch(x));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        x.fail(new IllegalStateException("HTTP client closed", e));
      }
    }
    return x.done;
  }

  /** One request and its answer. */
  private static final class Exchange<T> {
    final CompletableFuture<T> done = new CompletableFuture<>();
    final Request request;
    final byte[] body;
    final int expect; // -1: any status, complete with it
    final boolean wantBody;
    int status;
    StringBuilder answer; // the body, when wanted or when the status is not the expected one

    Exchange(Request request, byte[] body, int expect, boolean wantBody) {
      this.request = request;
      this.body = body;
      this.expect = expect;
      this.wantBody = wantBody;
    }

    void head(HttpResponse r) {
      status = r.status().code();
      if (wantBody || (expect >= 0 && status != expect)) {
        answer = new StringBuilder();
      }
    }

    void content(HttpContent c) {
      if (answer != null) {
        answer.append(c.content().toString(StandardCharsets.UTF_8));
      }
    }

    @SuppressWarnings("unchecked")
    void finish() {
      if (expect < 0) {
        done.complete((T) Integer.valueOf(status));
      } else if (status != expect) {
        fail(new IllegalStateException(request + ": status " + status + " (expected " + expect + "): " + answer));
      } else {
        done.complete(wantBody ? (T) answer.toString() : null);
      }
    }

    void fail(Throwable t) {
      done.completeExceptionally(t);
    }
  }

  /** One event loop, its connections and the requests waiting for one. Every field is touched on {@code loop} only. */
  private final class Lane {
    final EventLoop loop;
    final int max;
    final ArrayDeque<Connection> idle = new ArrayDeque<>();
    final ArrayDeque<Exchange<?>> waiting = new ArrayDeque<>();
    int open; // connections open or being opened

    Lane(EventLoop loop, int max) {
      this.loop = loop;
      this.max = max;
    }

    void dispatch(Exchange<?> x) {
      Connection c;
      while ((c = idle.pollFirst()) != null) {
        if (c.address.equals(x.request.address) && c.channel.isActive()) {
          c.write(x);
          return;
        }
        c.channel.close(); // to an earlier server, or closed meanwhile: its close frees the place
      }
      if (open < max) {
        connect(x);
      } else {
        waiting.addLast(x);
      }
    }

    private void connect(Exchange<?> first) {
      open++;
      Connection c = new Connection(this, first.request.address);
      new Bootstrap().group(loop).channel(channelType).option(ChannelOption.TCP_NODELAY, true)
          .option(ChannelOption.SO_KEEPALIVE, true).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
              ch.pipeline().addLast(new HttpClientCodec(), c);
            }
          }).connect(first.request.address).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
              c.channel = f.channel();
              c.write(first);
            } else {
              open--;
              first.fail(f.cause());
              pump();
            }
          });
    }

    /** A connection is free again: the next waiting request gets it, or it goes idle. */
    void release(Connection c) {
      Exchange<?> x = waiting.pollFirst();
      if (x == null) {
        idle.addFirst(c);
      } else if (c.address.equals(x.request.address)) {
        c.write(x);
      } else {
        c.channel.close();
        dispatch(x);
      }
    }

    /** A connection closed: its place is free; open one for a waiting request, if any. */
    void closed(Connection c) {
      open--;
      idle.remove(c);
      pump();
    }

    private void pump() {
      while (open < max && !waiting.isEmpty()) {
        connect(waiting.pollFirst());
      }
    }
  }

  /** One HTTP/1.1 connection of a lane: at most one request at a time. */
  private static final class Connection extends SimpleChannelInboundHandler<HttpObject> {
    final Lane lane;
    final InetSocketAddress address;
    Channel channel;
    Exchange<?> current;
    boolean keepAlive;

    Connection(Lane lane, InetSocketAddress address) {
      this.lane = lane;
      this.address = address;
    }

    void write(Exchange<?> x) {
      current = x;
      ByteBuf body = x.body == null ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(x.body);
      channel.writeAndFlush(x.request.encode(body)).addListener(f -> {
        if (!f.isSuccess()) {
          channel.close(); // channelInactive fails the exchange
        }
      });
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
      Exchange<?> x = current;
      if (msg.decoderResult().isFailure()) {
        current = null;
        if (x != null) {
          x.fail(new IOException("bad HTTP answer to " + x.request + ": " + msg.decoderResult().cause()));
        }
        ctx.close();
        return;
      }
      if (x == null) {
        ctx.close(); // an answer nobody asked for
        return;
      }
      if (msg instanceof HttpResponse r) {
        keepAlive = HttpUtil.isKeepAlive(r);
        x.head(r);
      }
      if (msg instanceof HttpContent c) {
        x.content(c);
      }
      if (msg instanceof LastHttpContent) {
        current = null;
        if (keepAlive) {
          lane.release(this); // first, so that a request started from the completion finds this connection idle
        } else {
          ctx.close();
        }
        x.finish();
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      Exchange<?> x = current;
      current = null;
      lane.closed(this);
      if (x != null) {
        x.fail(new IOException("connection to " + address + " closed before the answer to " + x.request));
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Exchange<?> x = current;
      current = null;
      if (x != null) {
        x.fail(cause);
      }
      ctx.close();
    }
  }

  /** Closes every connection and stops the event loops (requests in flight fail). */
  @Override
  public void close() throws Exception {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
  }
}
