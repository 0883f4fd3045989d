package io.tickwheel.bench.load;

import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.NumberFormat;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGGraphics2D;

/**
 * Grouped bar charts stacked in one SVG document, drawn by JFreeChart and written by JFreeSVG: one panel per
 * {@link Panel}, groups along the x axis, one bar per series with its value printed above it, the legend under the
 * first panel. A panel whose positive values span more than 10× gets a logarithmic axis (its title says so), otherwise
 * a linear one from 0. A NaN value draws no bar. White background, so it reads the same on light and dark pages.
 * Stateless; thread safe (each call draws its own charts).
 */
public final class SvgChart {
  /** One panel. @param values {@code values[group][series]}, NaN where there is no figure */
  public record Panel(String title, List<String> groups, List<String> series, double[][] values) {
    public Panel {
      if (values.length != groups.size()) {
        throw new IllegalArgumentException("values has " + values.length + " groups, expected " + groups.size());
      }
      for (double[] g : values) {
        if (g.length != series.size()) {
          throw new IllegalArgumentException("a group has " + g.length + " values, expected " + series.size());
        }
      }
    }

    /** Whether the positive values span more than 10× (then the axis is logarithmic). */
    boolean logScale() {
      double min = Double.POSITIVE_INFINITY;
      double max = 0;
      for (double[] g : values) {
        for (double v : g) {
          if (v > 0) {
            min = Math.min(min, v);
            max = Math.max(max, v);
          }
        }
      }
      return max > 0 && max / min > 10;
    }
  }

  /** Colour per series, in order (Tableau 10; distinguishable for the common colour-vision deficiencies). */
  private static final Color[] COLOURS = {new Color(0x4e79a7), new Color(0x76b7b2), new Color(0xe15759),
      new Color(0xf28e2b), new Color(0xb07aa1), new Color(0x9c755f), new Color(0x59a14f), new Color(0xedc948),
      new Color(0xff9da7), new Color(0xbab0ac)};

  private static final int WIDTH = 960;
  private static final int HEADER = 60;
  private static final int PANEL_HEIGHT = 340;

  private SvgChart() {}

  /** The SVG document: {@code title}, {@code subtitle} (may be empty), then every panel. */
  public static String render(String title, String subtitle, List<Panel> panels) {
    System.setProperty("java.awt.headless", "true");
    int height = HEADER + panels.size() * PANEL_HEIGHT + (panels.isEmpty() ? 0 : 40);
    SVGGraphics2D g = new SVGGraphics2D(WIDTH, height);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, height);
    centred(g, title, new Font(Font.SANS_SERIF, Font.BOLD, 18), 28);
    if (subtitle != null && !subtitle.isEmpty()) {
      centred(g, subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 12), 48);
    }
    for (int i = 0; i < panels.size(); i++) {
      int h = PANEL_HEIGHT + (i == 0 ? 40 : 0);
      int y = HEADER + i * PANEL_HEIGHT + (i == 0 ? 0 : 40);
      chart(panels.get(i), i == 0).draw(g, new Rectangle2D.Double(0, y, WIDTH, h));
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + g.getSVGElement() + "\n";
  }

  private static void centred(SVGGraphics2D g, String text, Font font, int baseline) {
    g.setFont(font);
    g.setColor(Color.BLACK);
    g.drawString(text, (WIDTH - g.getFontMetrics().stringWidth(text)) / 2f, baseline);
  }

  private static JFreeChart chart(Panel p, boolean legend) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (int gi = 0; gi < p.groups().size(); gi++) {
      for (int si = 0; si < p.series().size(); si++) {
        double v = p.values()[gi][si];
        data.addValue(Double.isNaN(v) ? null : v, p.series().get(si), p.groups().get(gi));
      }
    }
    boolean log = p.logScale();
    ValueAxis axis;
    if (log) {
      LogAxis la = new LogAxis();
      la.setSmallestValue(1);
      la.setNumberFormatOverride(numbers());
      axis = la;
    } else {
      NumberAxis na = new NumberAxis();
      na.setNumberFormatOverride(numbers());
      axis = na;
    }
    BarRenderer bars = new BarRenderer();
    bars.setBarPainter(new StandardBarPainter());
    bars.setShadowVisible(false);
    bars.setItemMargin(0.05);
    bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", numbers()));
    bars.setDefaultItemLabelsVisible(true);
    bars.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    for (int si = 0; si < p.series().size(); si++) {
      bars.setSeriesPaint(si, COLOURS[si % COLOURS.length]);
    }
    CategoryPlot plot = new CategoryPlot(data, new org.jfree.chart.axis.CategoryAxis(), axis, bars);
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(new Color(0xdddddd));
    String title = log ? p.title() + " — log scale" : p.title();
    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 14), plot, legend);
    chart.setBackgroundPaint(Color.WHITE);
    return chart;
  }

  /** Grouped, at most 3 significant digits below 100: {@code 1,234,567}, {@code 12.3}, {@code 1.23}. */
  public static String format(double v) {
    return numbers(v).format(v);
  }

  private static NumberFormat numbers() {
    return new DecimalFormat("#,##0.##", DecimalFormatSymbols.getInstance(Locale.ROOT)) {
      @Override
      public StringBuffer format(double v, StringBuffer to, java.text.FieldPosition pos) {
        return numbers(v).format(v, to, pos);
      }
    };
  }

  private static DecimalFormat numbers(double v) {
    String pattern = Math.abs(v) >= 100 || v == Math.rint(v) ? "#,##0" : Math.abs(v) >= 10 ? "#,##0.#" : "#,##0.##";
    return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
  }
}
