package io.tickwheel.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The chart is well-formed SVG, names every target and prints every value; the axis goes log when it must. */
class SvgChartTest {

  private static final List<String> TARGETS =
      List.of("tickwheel-rocksdb", "tickwheel-redis", "quartz-jdbc", "db-scheduler", "redisson-delayed-queue");

  private static List<SvgChart.Panel> panels() {
    return List.of(
        new SvgChart.Panel("throughput <accepted/s> & more", List.of("single", "batch"), TARGETS,
            new double[][] {{9549, 8100, 276, 1925, 2154}, {70516, 64000, 1071, 18471, 4545}}),
        new SvgChart.Panel("p99 lateness ms", List.of("stream", "burst"), TARGETS,
            new double[][] {{12, 0, 24000, 2500, 300}, {450, 470, Double.NaN, 5295, 644}}));
  }

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<String> texts(Document d) {
    NodeList n = d.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
    List<String> t = new ArrayList<>();
    for (int i = 0; i < n.getLength(); i++) {
      t.add(n.item(i).getTextContent());
    }
    return t;
  }

  @Test
  void theSvgIsWellFormedAndNamesEveryTargetAndValue() throws Exception {
    String svg = SvgChart.render("tickwheel & peers", "5,000 timers", panels());
    Document d = parse(svg);
    assertThat(d.getDocumentElement().getLocalName()).isEqualTo("svg");
    List<String> texts = texts(d);
    assertThat(texts).containsAll(TARGETS)
        .contains("tickwheel & peers", "throughput <accepted/s> & more — log scale", "single", "batch", "stream")
        .contains("9,549", "8,100", "276", "1,925", "2,154", "70,516", "64,000", "1,071", "18,471", "4,545")
        .contains("24,000", "2,500", "300", "450", "470", "5,295", "644");
  }

  @Test
  void valuesWithinTenTimesGetALinearAxis() throws Exception {
    SvgChart.Panel p = new SvgChart.Panel("linear", List.of("g"), List.of("a", "b"), new double[][] {{40, 100}});
    List<String> texts = texts(parse(SvgChart.render("t", "", List.of(p))));
    assertThat(texts).contains("linear", "40", "100").doesNotContain("linear — log scale");
    assertThat(p.logScale()).isFalse();
    assertThat(new SvgChart.Panel("x", List.of("g"), List.of("a", "b"), new double[][] {{9, 100}}).logScale()).isTrue();
    assertThat(new SvgChart.Panel("x", List.of("g"), List.of("a", "b"), new double[][] {{0, Double.NaN}}).logScale())
        .isFalse();
  }

  @Test
  void valuesAreFormattedGroupedAndShort() {
    assertThat(SvgChart.format(1234567)).isEqualTo("1,234,567");
    assertThat(SvgChart.format(12)).isEqualTo("12");
    assertThat(SvgChart.format(12.34)).isEqualTo("12.3");
    assertThat(SvgChart.format(1.234)).isEqualTo("1.23");
  }

  @Test
  void aPanelWithTheWrongShapeIsRefused() {
    assertThatThrownBy(() -> new SvgChart.Panel("x", List.of("a", "b"), List.of("s"), new double[][] {{1}}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2");
  }
}
