package io.tickwheel.server.route;

import static io.vertx.core.http.HttpMethod.GET;
import static io.vertx.core.http.HttpMethod.POST;
import static org.assertj.core.api.Assertions.assertThat;

import io.tickwheel.server.route.ClusterFixture.Node;
import io.tickwheel.server.testing.OpenApiValidator;
import io.tickwheel.server.testing.TestVertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Export and import through any node of a cluster: three in-process nodes over one memory coordinator (8 partitions,
 * partition p served by node p % 3), real HTTP between them.
 */
class ClusterExportImportTest {

  static final int P = 8;
  ClusterFixture cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  HttpResponse<Buffer> send(Node n, HttpMethod m, String uri, String type, String body) {
    var req = n.client.request(m, uri);
    HttpResponse<Buffer> r = TestVertx.await(body == null ? req.send()
        : req.putHeader("content-type", type).sendBuffer(Buffer.buffer(body)));
    return OpenApiValidator.served().validate(m, uri, r);
  }

  @Test
  void anImportThroughOneNodeReachesEveryPartitionsOwnerAndAnyNodeExportsTheWholeCluster() {
    cluster = new ClusterFixture(3, P);
    long due = System.currentTimeMillis() + 3_600_000;
    StringBuilder body = new StringBuilder();
    Map<String, Long> dues = new HashMap<>();
    for (int p = 0; p < P; p++) {
      for (int k = 0; k < 3; k++) {
        String id = cluster.idIn(p, "imp" + k);
        long d = due + p * 1000 + k;
        dues.put(id, d);
        body.append("{\"id\":\"").append(id).append("\",\"topic\":\"t").append(p % 2).append("\",\"kind\":\"fixed-delay\",\"periodMs\":5000,")
            .append("\"nextDueAt\":").append(d).append(",\"firings\":").append(k).append(",\"createdAt\":7,")
            .append("\"paused\":").append(k == 2).append("}\n");
      }
    }
    body.append("{\"id\":\"bad id\",\"nextDueAt\":").append(due).append("}\n");
    Node entry = cluster.nodes.get(0);
    HttpResponse<Buffer> r = send(entry, POST, "/v1/import", "application/x-ndjson", body.toString());
    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject report = r.bodyAsJsonObject();
    assertThat(report.getLong("imported")).isEqualTo(3L * P);
    assertThat(report.getLong("failed")).isEqualTo(1);
    assertThat(report.getJsonArray("errors").getJsonObject(0).getLong("line")).isEqualTo(3L * P + 1);
    // each is held by its partition's owner, with its state, whichever node is asked
    for (Map.Entry<String, Long> e : dues.entrySet()) {
      JsonObject t = send(cluster.nodes.get(2), GET, "/v1/timers/" + e.getKey(), null, null).bodyAsJsonObject();
      assertThat(t.getLong("nextDueAt")).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(t.getLong("createdAt")).isEqualTo(7);
    }
    for (Node n : cluster.nodes) {
      String exported = send(n, GET, "/v1/export", null, null).bodyAsString();
      Map<String, Long> seen = new HashMap<>();
      for (String line : exported.split("\n")) {
        JsonObject l = new JsonObject(line);
        assertThat(seen.put(l.getString("id"), l.getLong("nextDueAt"))).isNull();
        assertThat(l.getLong("firings")).isEqualTo(Long.parseLong(l.getString("id").substring(3, 4)));
        assertThat(l.getBoolean("paused")).isEqualTo(l.getString("id").startsWith("imp2"));
      }
      assertThat(seen).isEqualTo(dues);
      assertThat(send(n, GET, "/v1/export?topic=t1", null, null).bodyAsString().split("\n")).hasSize(3 * P / 2);
    }
  }
}
