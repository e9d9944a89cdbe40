/*
 * chart.c - SVG bar and line charts (chart.h).
 *
 * Layout: a plot area with a y axis from 0 to a rounded maximum (1, 2 or 5
 * times a power of ten per tick), group labels under the x axis, the legend
 * to the right. Everything is written with fprintf into a memory buffer and
 * saved whole (write_file_atomic), so a report never holds half a figure.
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "report/chart.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/common.h"

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                      "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
                                      "#1f77b4", "#2ca02c"};
#define N_COLOURS (sizeof palette / sizeof palette[0])

#define TOP 50
#define PLOT_H 300
#define LEFT 70

static void text_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else
            fputc(*s, f);
    }
}

/* A tick step of 1, 2 or 5 x 10^k giving at most about 6 ticks up to max. */
static double tick_step(double max)
{
    double raw = max / 5, p = pow(10, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static double value(const struct chart *c, unsigned g, unsigned s, unsigned k)
{
    return c->values[((size_t)g * c->n_series + s) * c->n_stacks + k];
}

/* The largest bar (sum of its stacks) or point; and whether any is missing. */
static double data_max(const struct chart *c, bool *missing)
{
    double max = 0;
    *missing = false;
    for (unsigned g = 0; g < c->n_groups; g++)
        for (unsigned s = 0; s < c->n_series; s++) {
            double sum = 0;
            bool any = false;
            for (unsigned k = 0; k < c->n_stacks; k++) {
                double v = value(c, g, s, k);
                if (isnan(v))
                    continue;
                any = true;
                sum += v;
            }
            *missing |= !any;
            if (sum > max)
                max = sum;
        }
    if (c->ref > max)
        max = c->ref;
    return max > 0 ? max : 1;
}

/* Axes, ticks, title and the y label; returns the y scale top. */
static double axes(FILE *f, const struct chart *c, unsigned width, unsigned plot_w)
{
    bool missing;
    double max = data_max(c, &missing);
    double step = tick_step(max * 1.05), top = ceil(max * 1.05 / step) * step;
    fprintf(f, "<text x=\"%u\" y=\"22\" font-size=\"15\" text-anchor=\"middle\" font-weight=\"bold\">",
            width / 2);
    text_esc(f, c->title);
    fputs("</text>\n", f);
    if (missing)
        fprintf(f, "<text x=\"%u\" y=\"40\" font-size=\"11\" text-anchor=\"middle\" fill=\"#a00\">"
                   "gaps: runs that did not produce statistics</text>\n",
                width / 2);
    for (double y = 0; y <= top + step / 1000; y += step) {
        double py = TOP + PLOT_H - y / top * PLOT_H;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%u\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LEFT, py,
                LEFT + plot_w, py);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g</text>\n",
                LEFT - 5, py + 4, y);
    }
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", LEFT, TOP, LEFT,
            TOP + PLOT_H);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%u\" y2=\"%d\" stroke=\"#000\"/>\n", LEFT,
            TOP + PLOT_H, LEFT + plot_w, TOP + PLOT_H);
    if (c->ref > 0) {
        double py = TOP + PLOT_H - c->ref / top * PLOT_H;
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%u\" y2=\"%.1f\" stroke=\"#555\" "
                   "stroke-dasharray=\"4,3\"/>\n",
                LEFT, py, LEFT + plot_w, py);
    }
    fprintf(f, "<text x=\"16\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" "
               "transform=\"rotate(-90 16 %d)\">",
            TOP + PLOT_H / 2, TOP + PLOT_H / 2);
    text_esc(f, c->ylabel);
    fputs("</text>\n", f);
    return top;
}

static void legend(FILE *f, unsigned x, const char *const *names, unsigned n, bool lines)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned y = TOP + 4 + 18 * i;
        if (lines)
            fprintf(f, "<line x1=\"%u\" y1=\"%u\" x2=\"%u\" y2=\"%u\" stroke=\"%s\" "
                       "stroke-width=\"2\"/>\n",
                    x, y + 6, x + 14, y + 6, palette[i % N_COLOURS]);
        else
            fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", x, y,
                    palette[i % N_COLOURS]);
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"12\">", x + 18, y + 10);
        text_esc(f, names[i]);
        fputs("</text>\n", f);
    }
}

/* Close the SVG and write it whole; `text` is the memory stream's buffer,
 * valid only once the stream is closed. */
static int save(const char *path, FILE *f, char **text)
{
    fputs("</svg>\n", f);
    fclose(f);
    int rc = write_file_atomic(path, *text) ? -1 : 0;
    free(*text);
    return rc;
}

static FILE *open_svg(char **text, size_t *len, unsigned width, unsigned height)
{
    FILE *f = open_memstream(text, len);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" "
               "viewBox=\"0 0 %u %u\" font-family=\"sans-serif\">\n"
               "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
            width, height, width, height);
    return f;
}

int chart_bars_svg(const char *path, const struct chart *c)
{
    bool stacked = c->n_stacks > 1;
    unsigned bar_w = c->n_series > 6 ? 10 : 14;
    unsigned group_w = c->n_series * bar_w + 16;
    unsigned plot_w = c->n_groups * group_w + 10;
    unsigned legend_n = stacked ? c->n_stacks : c->n_series;
    unsigned width = LEFT + plot_w + 140;
    unsigned below = stacked ? 90 : 50;
    unsigned height = TOP + PLOT_H + below;
    if (TOP + 18 * legend_n + 10 > height)
        height = TOP + 18 * legend_n + 10;
    char *text;
    size_t len;
    FILE *f = open_svg(&text, &len, width, height);
    double top = axes(f, c, width, plot_w);
    for (unsigned g = 0; g < c->n_groups; g++) {
        unsigned gx = LEFT + 10 + g * group_w;
        for (unsigned s = 0; s < c->n_series; s++) {
            unsigned x = gx + s * bar_w;
            double base = 0;
            for (unsigned k = 0; k < c->n_stacks; k++) {
                double v = value(c, g, s, k);
                if (isnan(v) || v <= 0)
                    continue;
                double y0 = TOP + PLOT_H - base / top * PLOT_H;
                double y1 = TOP + PLOT_H - (base + v) / top * PLOT_H;
                fprintf(f, "<rect x=\"%u\" y=\"%.1f\" width=\"%u\" height=\"%.1f\" fill=\"%s\">"
                           "<title>",
                        x, y1, bar_w - 1, y0 - y1,
                        palette[(stacked ? k : s) % N_COLOURS]);
                text_esc(f, c->groups[g]);
                fputc(' ', f);
                text_esc(f, c->series[s]);
                if (stacked) {
                    fputc(' ', f);
                    text_esc(f, c->stacks[k]);
                }
                fprintf(f, ": %.3f</title></rect>\n", v);
                base += v;
            }
            if (stacked) {
                unsigned ly = TOP + PLOT_H + 6;
                fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"9\" "
                           "transform=\"rotate(90 %u %u)\">",
                        x + bar_w / 2 - 3, ly, x + bar_w / 2 - 3, ly);
                text_esc(f, c->series[s]);
                fputs("</text>\n", f);
            }
        }
        unsigned ly = TOP + PLOT_H + (stacked ? 78 : 16);
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"12\" text-anchor=\"middle\">",
                gx + c->n_series * bar_w / 2, ly);
        text_esc(f, c->groups[g]);
        fputs("</text>\n", f);
    }
    if (c->xlabel) {
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"12\" text-anchor=\"middle\">",
                LEFT + plot_w / 2, height - 8);
        text_esc(f, c->xlabel);
        fputs("</text>\n", f);
    }
    legend(f, LEFT + plot_w + 15, stacked ? c->stacks : c->series, legend_n, false);
    return save(path, f, &text);
}

int chart_lines_svg(const char *path, const struct chart *c)
{
    unsigned step_x = 70;
    unsigned plot_w = (c->n_groups ? c->n_groups - 1 : 0) * step_x + 40;
    unsigned width = LEFT + plot_w + 140;
    unsigned height = TOP + PLOT_H + 50;
    if (TOP + 18 * c->n_series + 10 > height)
        height = TOP + 18 * c->n_series + 10;
    char *text;
    size_t len;
    FILE *f = open_svg(&text, &len, width, height);
    double top = axes(f, c, width, plot_w);
    for (unsigned g = 0; g < c->n_groups; g++) {
        fprintf(f, "<text x=\"%u\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">",
                LEFT + 20 + g * step_x, TOP + PLOT_H + 16);
        text_esc(f, c->groups[g]);
        fputs("</text>\n", f);
    }
    for (unsigned s = 0; s < c->n_series; s++) {
        const char *colour = palette[s % N_COLOURS];
        bool pen = false;
        for (unsigned g = 0; g < c->n_groups; g++) {
            double v = value(c, g, s, 0);
            if (isnan(v)) {
                if (pen)
                    fputs("\"/>\n", f);
                pen = false;
                continue;
            }
            double px = LEFT + 20 + g * step_x, py = TOP + PLOT_H - v / top * PLOT_H;
            if (!pen)
                fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                        colour);
            fprintf(f, "%.1f,%.1f ", px, py);
            pen = true;
        }
        if (pen)
            fputs("\"/>\n", f);
        for (unsigned g = 0; g < c->n_groups; g++) {
            double v = value(c, g, s, 0);
            if (isnan(v))
                continue;
            fprintf(f, "<circle cx=\"%u\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
                    LEFT + 20 + g * step_x, TOP + PLOT_H - v / top * PLOT_H, colour);
            text_esc(f, c->series[s]);
            fputc(' ', f);
            text_esc(f, c->groups[g]);
            fprintf(f, ": %.3f</title></circle>\n", v);
        }
    }
    if (c->xlabel) {
        fprintf(f, "<text x=\"%u\" y=\"%u\" font-size=\"12\" text-anchor=\"middle\">",
                LEFT + plot_w / 2, height - 8);
        text_esc(f, c->xlabel);
        fputs("</text>\n", f);
    }
    legend(f, LEFT + plot_w + 15, c->series, c->n_series, true);
    return save(path, f, &text);
}
