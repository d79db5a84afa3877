/* End-to-end: the files `clrattach profile` writes, read by the programs people open them with:
 * its flame graph page in headless Chromium, the speedscope file in speedscope (from npm, run
 * offline in Chromium), the pprof file in `go tool pprof`. Registered once, not per runtime of
 * the matrix: these check the formats, which do not depend on the runtime. */
#define _GNU_SOURCE
#include "consumer.h"
#include "harness.h"
#include "hot_app.h"
#include "render/format.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The 70/30 thread's Seventy share of Seventy+Thirty as a consumer reads it, within this. */
#define SHARE_TOLERANCE 0.08
/* Flame graph colours (flamegraph_page.c): r 205..236, g 90..217, b 40..103. */
#define FLAME_PIXELS_MIN_PERMILLE 10

/* Profiles the hot app for seconds into a->dir/name; fails unless the command succeeded. */
static const char *profile_into(app_t *a, const char *seconds, const char *name)
{
    const char *out, *path = out_path(a, name);
    int rc = run_cli(&out, "profile", "--method", "walk", "--duration", seconds, "--output", path, app_pid_text(a),
                     NULL);
    ASSERT_MSG(rc == 0, "profile --output %s failed (%d):\n%s", name, rc, out);
    return path;
}

/* The page counts the screenshot's pixels in the flame graph's colours: a blank page, or one
 * whose script failed, has none. */
static const char checker_head[] =
    "<!DOCTYPE html><html><body><pre id=\"r\">not loaded</pre>"
    "<img id=\"i\" src=\"data:image/png;base64,";
static const char checker_tail[] =
    "\"><script>\n"
    "const i=document.getElementById(\"i\");\n"
    "function count(){const c=document.createElement(\"canvas\");c.width=i.naturalWidth;"
    "c.height=i.naturalHeight;const x=c.getContext(\"2d\");x.drawImage(i,0,0);\n"
    "const d=x.getImageData(0,0,c.width,c.height).data;let warm=0;const seen=new Set();\n"
    "for(let k=0;k<d.length;k+=4){const r=d[k],g=d[k+1],b=d[k+2];\n"
    " if(r>=205&&r<=236&&g>=90&&g<=217&&b>=40&&b<=103){warm++;seen.add(r<<16|g<<8|b);}}\n"
    "document.getElementById(\"r\").textContent=\"size=\"+c.width+\"x\"+c.height+\" warm=\"+warm"
    "+\" colors=\"+seen.size;}\n"
    "if(i.complete)count();else i.onload=count;\n"
    "</script></body></html>\n";

TEST(profile_flamegraph_page_renders_in_headless_chromium)
{
    app_t a;
    char url[512], want[128], html[300], dom[300], png[300], checker[300];
    hot_start(&a, "--only-hot");
    snprintf(html, sizeof html, "%s", profile_into(&a, "1", "fg.html"));
    snprintf(dom, sizeof dom, "%s", out_path(&a, "fg.dom"));
    snprintf(png, sizeof png, "%s", out_path(&a, "fg.png"));
    snprintf(checker, sizeof checker, "%s", out_path(&a, "check.html"));
    snprintf(url, sizeof url, "file://%s", html);
    ASSERT_EQ(chromium_run(a.dir, url, dom, NULL), 0);
    const char *text = slurp(dom);
    /* The title line is filled in by the page's script, with the total it computed. */
    snprintf(want, sizeof want, "<h1 id=\"title\">clrattach profile %s (cpu, 99 Hz) (",
             app_pid_text(&a));
    ASSERT_CONTAINS(text, want);
    ASSERT_CONTAINS(text, " ms)</h1>");
    ASSERT_CONTAINS(text, "ClrAttach.Hot.Shares.Seventy");
    ASSERT_CONTAINS(text, "ClrAttach.Hot.Shares.Thirty");

    ASSERT_EQ(chromium_run(a.dir, url, NULL, png), 0);
    struct stat st;
    ASSERT_MSG(stat(png, &st) == 0 && st.st_size > 1000, "no screenshot at %s", png);
    ASSERT(memcmp(slurp(png), "\x89PNG\r\n\x1a\n", 8) == 0);
    ASSERT(write_base64_between(checker, checker_head, png, checker_tail) == 0);
    snprintf(url, sizeof url, "file://%s", checker);
    ASSERT_EQ(chromium_run(a.dir, url, dom, NULL), 0);
    const char *r = strstr(slurp(dom), "size=");
    int w = 0, h = 0;
    long warm = 0, colors = 0;
    ASSERT_MSG(r && sscanf(r, "size=%dx%d warm=%ld colors=%ld", &w, &h, &warm, &colors) == 4,
               "the checker page did not count the screenshot's pixels:\n%.2000s", slurp(dom));
    test_note("screenshot %dx%d: %ld pixels in flame colours, %ld distinct", w, h, warm, colors);
    ASSERT_MSG(w == 1200 && h == 800, "screenshot is %dx%d, want the window's 1200x800", w, h);
    ASSERT_MSG(warm * 1000 >= (long)w * h * FLAME_PIXELS_MIN_PERMILLE && colors >= 3,
               "the screenshot shows no flame graph: %ld of %d pixels in flame colours, %ld "
               "colours", warm, w * h, colors);
    app_stop(&a);
}

/* Run in the page after its own script: searches as a user would (the box, then Enter) and
 * writes what the page shows, and how long loading and the search took, into the DOM. */
static const char big_probe[] =
    "<script>\n"
    "const t0=performance.now(),box=document.getElementById(\"search\");\n"
    "box.value=\"^Leaf\\\\.M1\";\n"
    "box.dispatchEvent(new KeyboardEvent(\"keydown\",{key:\"Enter\"}));\n"
    "const cv=document.getElementById(\"fg\"),p=document.createElement(\"pre\");\n"
    "p.id=\"probe\";p.textContent=\"probe title=[\"+document.getElementById(\"title\").textContent+"
    "\"] \"+document.getElementById(\"matched\").textContent+\" canvas=\"+cv.width+\"x\"+cv.height+"
    "\" load_ms=\"+t0.toFixed(0)+\" search_ms=\"+(performance.now()-t0).toFixed(0);\n"
    "document.body.appendChild(p);\n"
    "</script>\n";

/* Writes a flame graph page of 100,000 distinct stacks, Root.Main;Mid.Common;Leaf.M<i>, one
 * millisecond each, with big_probe after it. */
static void write_big_page(const char *path)
{
    profile_t p;
    char name[32];
    profile_init(&p);
    p.title = "big";
    for (int i = 0; i < 100000; i++) {
        snprintf(name, sizeof name, "Leaf.M%d", i);
        const char *s[] = {name, "Mid.Common", "Root.Main"};
        ASSERT(profile_add_sample(&p, 1, "t", s, 3, 1000000) == 0);
    }
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    profile_write_opts_t o = {0, 20};
    ASSERT(profile_write(&p, &o, FMT_FLAMEGRAPH, f) == 0);
    ASSERT(fputs(big_probe, f) >= 0 && fclose(f) == 0);
    profile_free(&p);
}

TEST(flamegraph_page_of_100000_distinct_stacks_loads_and_searches_in_headless_chromium)
{
    char dir[] = "/tmp/clra-bigfg-XXXXXX", html[64], dom[64], url[96];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(html, sizeof html, "%s/big.html", dir);
    snprintf(dom, sizeof dom, "%s/big.dom", dir);
    write_big_page(html);
    snprintf(url, sizeof url, "file://%s", html);
    ASSERT_EQ(chromium_run(dir, url, dom, NULL), 0);
    const char *probe = strstr(slurp(dom), "<pre id=\"probe\">");
    probe = probe ? probe + strlen("<pre id=\"probe\">") : NULL;
    ASSERT_MSG(probe, "the page's probe did not run:\n%.2000s", slurp(dom));
    test_note("%.200s", probe);
    ASSERT_MSG(strncmp(probe, "probe title=[big (100000.0 ms)]", 31) == 0, "%.200s", probe);
    /* ^Leaf\.M1 matches M1, M10-19, M100-199, M1000-1999, M10000-19999: 11,111 of 100,000. */
    ASSERT_CONTAINS(probe, "] matched 11.11% canvas=");
    int w = 0, h = 0;
    ASSERT(sscanf(strstr(probe, "canvas="), "canvas=%dx%d", &w, &h) == 2);
    ASSERT_MSG(w >= 200 && h >= 4 * 17, "canvas %dx%d: not drawn for four rows", w, h);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT(system(cmd) == 0);
}

/* The total percentage speedscope's sandwich table gives the row of method, -1 if absent. */
static double sandwich_total(const char *dom, const char *method)
{
    char cell[256];
    snprintf(cell, sizeof cell, "</span>%s</td>", method);
    const char *at = strstr(dom, cell), *row = NULL;
    for (const char *p = dom; at && (p = strstr(p, "<tr")) && p < at; p++)
        row = p;
    const char *open = row ? strchr(row, '(') : NULL;
    double pct;
    return open && open < at && sscanf(open, "(%lf%%)", &pct) == 1 ? pct : -1;
}

TEST(profile_speedscope_file_loads_in_speedscope)
{
    app_t a;
    char url[1024], title[160], json[300], js[300], dom[300];
    hot_start(&a, "--only-hot");
    snprintf(json, sizeof json, "%s", profile_into(&a, "2", "p.json"));
    snprintf(js, sizeof js, "%s", out_path(&a, "p.js"));
    snprintf(dom, sizeof dom, "%s", out_path(&a, "p.dom"));
    /* What speedscope's own command line does: a script that hands it the file. */
    ASSERT(write_base64_between(js, "speedscope.loadFileFromBase64(\"p.json\", \"", json,
                                "\")\n") == 0);
    snprintf(url, sizeof url, "file://%s#localProfilePath=%s&view=sandwich", CLRA_SPEEDSCOPE_HTML,
             js);
    struct stat st;
    ASSERT_MSG(stat(CLRA_SPEEDSCOPE_HTML, &st) == 0, "speedscope is not installed at %s (the "
               "fixture test tools.speedscope installs it from npm)", CLRA_SPEEDSCOPE_HTML);
    snprintf(title, sizeof title, "<title>clrattach profile %s (cpu, 99 Hz) - speedscope</title>",
             app_pid_text(&a));
    const char *text = "";
    double seventy = -1, thirty = -1;
    /* The sandwich table is a virtual list that fills its rows a frame after it sized itself; on
     * a loaded machine the DOM was once dumped between the two (rows absent, all else there). */
    for (int attempt = 0; attempt < 3 && (seventy <= 0 || thirty <= 0); attempt++) {
        ASSERT_EQ(chromium_run(a.dir, url, dom, NULL), 0);
        text = slurp(dom);
        ASSERT_MSG(!strstr(text, "Something went wrong"), "speedscope failed:\n%.3000s", text);
        ASSERT_CONTAINS(text, title);
        seventy = sandwich_total(text, "ClrAttach.Hot.Shares.Seventy");
        thirty = sandwich_total(text, "ClrAttach.Hot.Shares.Thirty");
        if (seventy <= 0 || thirty <= 0)
            test_note("attempt %d: the sandwich table has no rows yet", attempt + 1);
    }
    ASSERT_MSG(seventy > 0 && thirty > 0, "speedscope's table lacks the hot methods:\n%.3000s",
               text);
    double share = seventy / (seventy + thirty);
    test_note("speedscope: Seventy %.1f%%, Thirty %.1f%%: share %.3f", seventy, thirty, share);
    ASSERT_MSG(share > 0.70 - SHARE_TOLERANCE && share < 0.70 + SHARE_TOLERANCE,
               "speedscope gives Seventy %.3f of the hot thread, want 0.70 +- %.2f", share,
               SHARE_TOLERANCE);
    app_stop(&a);
}

/* The cum% pprof -top gives method, -1 when it is not listed. */
static double pprof_cum(const char *table, const char *method)
{
    for (const char *l = table; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        char flat[32], cum[32], name[512];
        double flatp, sump, cump;
        if (sscanf(l, "%31s %lf%% %lf%% %31s %lf%% %511s", flat, &flatp, &sump, cum, &cump,
                   name) == 6 && strcmp(name, method) == 0)
            return cump;
    }
    return -1;
}

/* The N of pprof's "... of N total" line, -1 when absent. */
static long long pprof_total(const char *table)
{
    const char *of = strstr(table, "% of ");
    return of ? atoll(of + 5) : -1;
}

/* Runs go tool pprof -top on pb (sample index idx) into a static buffer. */
static const char *pprof_top(app_t *a, const char *pb, const char *idx)
{
    static char text[1 << 16];
    char index[64], top_out[300], err[300];
    snprintf(index, sizeof index, "-sample_index=%s", idx);
    snprintf(top_out, sizeof top_out, "%s", out_path(a, "pprof.top"));
    snprintf(err, sizeof err, "%s", out_path(a, "pprof.err"));
    const char *argv[] = {consumer_find("go"), "tool", "pprof", "-top", index, pb, NULL};
    int rc = consumer_run(argv, top_out, err, 60000);
    ASSERT_MSG(rc == 0, "go tool pprof -top exited %d:\n%s", rc, slurp(err));
    snprintf(text, sizeof text, "%s", slurp(top_out));
    return text;
}

/* pprof reads the file: its sample count is the profile's own, and it splits the CPU between
 * Seventy and Thirty 70/30 as the top table of another profile does. (Which leaf is hottest,
 * Work.Burn or the safe-point poll under it, flips from one profile to the next: the two are
 * close, so "the same top function" is asked of cumulative shares, which are stable.) */
TEST(profile_pprof_file_gives_go_tool_pprof_the_samples_and_the_shares_of_the_top_table)
{
    app_t a;
    const char *out;
    char pb[300];
    hot_start(&a, "--only-hot");
    snprintf(pb, sizeof pb, "%s", out_path(&a, "p.pb.gz"));
    int rc = run_cli(&out, "profile", "--method", "walk", "--duration", "2", "--output", pb, "--json",
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --output p.pb.gz failed (%d):\n%s", rc, out);
    long long samples = atoll(json_value(out, "samples"));
    long long counted = pprof_total(pprof_top(&a, pb, "samples"));
    ASSERT_MSG(samples > 50 && counted == samples, "pprof counts %lld samples, the profile "
               "reported %lld", counted, samples);
    const char *pprof = pprof_top(&a, pb, "cpu");
    double seventy = pprof_cum(pprof, "ClrAttach.Hot.Shares.Seventy");
    double thirty = pprof_cum(pprof, "ClrAttach.Hot.Shares.Thirty");
    ASSERT_MSG(seventy > 0 && thirty > 0, "pprof lists no hot methods:\n%s", pprof);
    double share = seventy / (seventy + thirty);
    test_note("pprof: Seventy %.2f%%, Thirty %.2f%%: share %.3f", seventy, thirty, share);
    ASSERT_MSG(share > 0.70 - SHARE_TOLERANCE && share < 0.70 + SHARE_TOLERANCE,
               "pprof gives Seventy %.3f of the hot thread, want 0.70 +- %.2f:\n%s", share,
               SHARE_TOLERANCE, pprof);
    rc = run_cli(&out, "profile", "--method", "walk", "--duration", "2", "--format", "top", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --format top failed (%d):\n%s", rc, out);
    double top70 = top_total(out, "ClrAttach.Hot.Shares.Seventy");
    double top30 = top_total(out, "ClrAttach.Hot.Shares.Thirty");
    ASSERT_MSG(top70 > 0 && top30 > 0, "the top table lists no hot methods:\n%s", out);
    double top_share = top70 / (top70 + top30);
    ASSERT_MSG(top_share - share < SHARE_TOLERANCE && share - top_share < SHARE_TOLERANCE,
               "pprof gives Seventy %.3f, the top table %.3f:\n%s\n%s", share, top_share,
               pprof, out);
    app_stop(&a);
}
