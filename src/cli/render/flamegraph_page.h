/* flamegraph_page.h - the flame graph page, written around its JSON data. */
#ifndef CLRA_CLI_RENDER_FLAMEGRAPH_PAGE_H
#define CLRA_CLI_RENDER_FLAMEGRAPH_PAGE_H

extern const char flamegraph_page_head[]; /* up to the opening of <script id="data"> */
extern const char flamegraph_page_tail[]; /* from its closing tag to the end */

#endif
