import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Pipelined WebSocket touches against a running server: CONNECTIONS sockets on /v1/ws, each keeping WINDOW touch
 * commands in flight ({"op":"touch","ref":…,"id":"k<random 1..KEYS>","delayMs":3600000}) for SECONDS seconds.
 * Prints "touches/s N errors E" (results with a status other than 200 count as errors).
 * Run with the server jar on the class path (single-file source launch):
 *   java -cp server/target/tickwheel.jar bench/wrk/WsTouch.java PORT KEYS SECONDS [CONNECTIONS 8] [WINDOW 500]
 */
public class WsTouch {
  public static void main(String[] a) throws Exception {
    int port = Integer.parseInt(a[0]);
    int keys = Integer.parseInt(a[1]);
    int seconds = Integer.parseInt(a[2]);
    int conns = a.length > 3 ? Integer.parseInt(a[3]) : 8;
    int window = a.length > 4 ? Integer.parseInt(a[4]) : 500;
    Vertx vertx = Vertx.vertx();
    WebSocketClient client = vertx.createWebSocketClient();
    AtomicLong ok = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    CountDownLatch done = new CountDownLatch(conns);
    for (int c = 0; c < conns; c++) {
      client.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI("/v1/ws"))
          .onFailure(e -> {
            e.printStackTrace();
            System.exit(1);
          })
          .onSuccess(ws -> {
            long[] sent = {0};
            long[] answered = {0};
            Runnable sendOne = () -> {
              sent[0]++;
              ws.writeTextMessage("{\"op\":\"touch\",\"ref\":\"" + sent[0] + "\",\"id\":\"k"
                  + ThreadLocalRandom.current().nextInt(1, keys + 1) + "\",\"delayMs\":3600000}");
            };
            ws.textMessageHandler(text -> {
              answered[0]++;
              if (text.contains("\"status\":200")) {
                ok.incrementAndGet();
              } else {
                errors.incrementAndGet();
              }
              if (System.nanoTime() < end) {
                sendOne.run();
              } else if (answered[0] == sent[0]) {
                ws.close();
                done.countDown();
              }
            });
            for (int i = 0; i < window; i++) {
              sendOne.run();
            }
          });
    }
    long t0 = System.nanoTime();
    done.await();
    double s = (System.nanoTime() - t0) / 1e9;
    System.out.printf("touches/s %.0f errors %d%n", ok.get() / s, errors.get());
    vertx.close();
  }
}
