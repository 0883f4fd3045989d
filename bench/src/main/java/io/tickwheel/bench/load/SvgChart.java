package io.tickwheel.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A grouped bar chart as hand-written SVG 1.1 text (no library): panels stacked vertically, each with groups along
 * the x axis and one bar per series in every group, the value printed above each bar, one legend for all panels.
 * A panel whose positive values span more than 10× gets a logarithmic y axis (decades, labelled), otherwise a
 * linear one from 0. A NaN value draws no bar and prints {@code n/a}; a 0 on a log axis sits on the axis and prints
 * {@code 0}. White background and explicit fills, so it reads the same in a browser and on GitHub (light or dark).
 * Stateless; thread safe.
 */
public final class SvgChart {
  /**
   * One panel. @param values {@code values[group][series]}, NaN where there is no figure
   */
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
  }

  /** Colour per series, in order (Tableau 10; distinguishable for the common colour-vision deficiencies). */
  static final String[] COLOURS = {"#4e79a7", "#76b7b2", "#e15759", "#f28e2b", "#b07aa1", "#9c755f", "#59a14f",
      "#edc948", "#ff9da7", "#bab0ac"};

  private static final int WIDTH = 960;
  private static final int LEFT = 80;
  private static final int RIGHT = 20;
  private static final int PANEL_HEIGHT = 330;
  private static final int PLOT_TOP = 40;     // within a panel: title above
  private static final int PLOT_HEIGHT = 240;
  private static final int LEGEND_COLUMNS = 5;

  private SvgChart() {}

  /** The SVG document: {@code title}, {@code subtitle} (may be empty), the legend of the first panel's series. */
  public static String render(String title, String subtitle, List<Panel> panels) {
    List<String> legend = panels.isEmpty() ? List.of() : panels.get(0).series();
    int legendRows = (legend.size() + LEGEND_COLUMNS - 1) / LEGEND_COLUMNS;
    int top = 70 + legendRows * 22;
    int height = top + panels.size() * PANEL_HEIGHT + 10;
    StringBuilder b = new StringBuilder();
    b.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(WIDTH)
        .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
        .append("\" font-family=\"Helvetica, Arial, sans-serif\">\n");
    b.append("<rect x=\"0\" y=\"0\" width=\"").append(WIDTH).append("\" height=\"").append(height)
        .append("\" fill=\"#ffffff\"/>\n");
    text(b, WIDTH / 2.0, 26, title, 18, "middle", "bold");
    if (subtitle != null && !subtitle.isEmpty()) {
      text(b, WIDTH / 2.0, 46, subtitle, 12, "middle", null);
    }
    for (int i = 0; i < legend.size(); i++) {
      double x = LEFT + (i % LEGEND_COLUMNS) * (WIDTH - LEFT - RIGHT) / (double) LEGEND_COLUMNS;
      double y = 60 + (i / LEGEND_COLUMNS) * 22;
      b.append("<rect x=\"").append(x).append("\" y=\"").append(y).append("\" width=\"14\" height=\"14\" fill=\"")
          .append(colour(i)).append("\"/>\n");
      text(b, x + 20, y + 12, legend.get(i), 13, "start", null);
    }
    for (int p = 0; p < panels.size(); p++) {
      panel(b, panels.get(p), top + p * PANEL_HEIGHT);
    }
    b.append("</svg>\n");
    return b.toString();
  }

  private static void panel(StringBuilder b, Panel p, int y0) {
    double plotTop = y0 + PLOT_TOP;
    double plotBottom = plotTop + PLOT_HEIGHT;
    double plotWidth = WIDTH - LEFT - RIGHT;
    Axis axis = Axis.of(p.values());
    text(b, LEFT, y0 + 20, p.title() + (axis.log ? " — log scale" : ""), 14, "start", "bold");
    for (double tick : axis.ticks()) {
      double y = axis.y(tick, plotTop, plotBottom);
      b.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(fmt(y)).append("\" x2=\"")
          .append(WIDTH - RIGHT).append("\" y2=\"").append(fmt(y)).append("\" stroke=\"#dddddd\" stroke-width=\"1\"/>\n");
      text(b, LEFT - 6, y + 4, format(tick), 11, "end", null);
    }
    b.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(fmt(plotBottom)).append("\" x2=\"")
        .append(WIDTH - RIGHT).append("\" y2=\"").append(fmt(plotBottom)).append("\" stroke=\"#333333\"/>\n");
    int groups = p.groups().size();
    int series = p.series().size();
    double groupWidth = plotWidth / Math.max(1, groups);
    double barWidth = groupWidth * 0.8 / Math.max(1, series);
    for (int g = 0; g < groups; g++) {
      double gx = LEFT + g * groupWidth + groupWidth * 0.1;
      text(b, LEFT + (g + 0.5) * groupWidth, plotBottom + 20, p.groups().get(g), 13, "middle", "bold");
      for (int s = 0; s < series; s++) {
        double v = p.values()[g][s];
        double x = gx + s * barWidth;
        double cx = x + barWidth / 2;
        if (Double.isNaN(v)) {
          text(b, cx, plotBottom - 6, "n/a", 11, "middle", null);
          continue;
        }
        double y = axis.y(v, plotTop, plotBottom);
        b.append("<rect x=\"").append(fmt(x + 2)).append("\" y=\"").append(fmt(y)).append("\" width=\"")
            .append(fmt(barWidth - 4)).append("\" height=\"").append(fmt(plotBottom - y)).append("\" fill=\"")
            .append(colour(s)).append("\"><title>").append(escape(p.series().get(s) + ", " + p.groups().get(g)
                + ": " + format(v))).append("</title></rect>\n");
        text(b, cx, y - 4, format(v), 11, "middle", null);
      }
    }
  }

  /** The y axis of a panel: linear from 0 to a round maximum, or decades when values span > 10×. */
  record Axis(boolean log, double min, double max) {
    static Axis of(double[][] values) {
      double lo = Double.POSITIVE_INFINITY;
      double hi = 0;
      for (double[] g : values) {
        for (double v : g) {
          if (!Double.isNaN(v) && v > 0) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
          }
        }
      }
      if (hi == 0) {
        return new Axis(false, 0, 1);
      }
      if (hi / lo > 10) {
        double min = Math.pow(10, Math.floor(Math.log10(lo)));
        double max = Math.pow(10, Math.ceil(Math.log10(hi) + 0.15)); // room above the tallest bar for its label
        return new Axis(true, min, max);
      }
      double step = niceStep(hi * 1.15 / 5);
      return new Axis(false, 0, Math.ceil(hi * 1.15 / step) * step);
    }

    /** The value's y coordinate; on a log axis values at or below the minimum sit on the axis. */
    double y(double v, double top, double bottom) {
      double f = log ? (v <= min ? 0 : (Math.log10(v) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)))
          : v / max;
      return bottom - Math.min(1, f) * (bottom - top);
    }

    List<Double> ticks() {
      List<Double> t = new ArrayList<>();
      if (log) {
        for (double d = min; d <= max * 1.0001; d *= 10) {
          t.add(d);
        }
      } else {
        double step = niceStep(max / 5);
        for (double d = 0; d <= max * 1.0001; d += step) {
          t.add(d);
        }
      }
      return t;
    }

    private static double niceStep(double raw) {
      double mag = Math.pow(10, Math.floor(Math.log10(raw)));
      double n = raw / mag;
      return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
    }
  }

  /** A figure as printed on the chart: grouped integer from 100 up ("12,345"), else up to 2 decimals. */
  public static String format(double v) {
    if (Math.abs(v) >= 100 || v == Math.rint(v)) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return String.format(Locale.ROOT, Math.abs(v) >= 10 ? "%.1f" : "%.2f", v);
  }

  private static String colour(int i) {
    return COLOURS[i % COLOURS.length];
  }

  private static void text(StringBuilder b, double x, double y, String s, int size, String anchor, String weight) {
    b.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" font-size=\"").append(size)
        .append("\" text-anchor=\"").append(anchor).append("\" fill=\"#222222\"");
    if (weight != null) {
      b.append(" font-weight=\"").append(weight).append('"');
    }
    b.append('>').append(escape(s)).append("</text>\n");
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&apos;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
