/*
 * rules_api.c: the accessors of the public API (quench/ruleset.h) that
 * read a rule's board and states without handing out its qn_layout.
 */
#include "rules/layout.h"
#include "rules/rules.h"
#include "rules/state.h"

const char *qn_rules_board(const qn_rules *r, int *w, int *h)
{
    const qn_layout *l = qn_rules_layout(r);

    if (w)
        *w = l->w;
    if (h)
        *h = l->h;
    return qn_layout_kind_name(l->kind);
}

int qn_rules_cell_at(const qn_rules *r, int row, int col)
{
    const qn_layout *l = qn_rules_layout(r);

    if (row < 0 || col < 0 || row >= l->h || col >= l->w)
        return -1;
    return qn_layout_cell(l, row, col);
}

void qn_rules_cell_rc(const qn_rules *r, int i, int *row, int *col)
{
    qn_layout_rc(qn_rules_layout(r), i, row, col);
}

int qn_rules_parse_state(const qn_rules *r, uint8_t *cells_out,
                         const char *text, size_t len, qn_err *err)
{
    return qn_state_parse(cells_out, qn_rules_layout(r), qn_rules_colours(r),
                          text, len, err);
}

void qn_rules_format_state(const qn_rules *r, qn_buf *out, const uint8_t *cells,
                           char sep)
{
    qn_state_format(out, qn_rules_layout(r), cells, sep);
}
