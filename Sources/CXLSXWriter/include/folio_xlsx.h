#ifndef FOLIO_XLSX_H
#define FOLIO_XLSX_H

/* libxlsxwriter, loaded with dlopen on first use: only a spreadsheet needs it (it brings libcrypto
   and minizip), so no PDF or HTML render, and no process start, spends time binding its symbols.
   xlsxwriter.h gives the types and constants; its functions are reached only through the table
   below (nothing links libxlsxwriter). */
#include <xlsxwriter.h>

typedef struct {
    __typeof__(workbook_new_opt) *_Nonnull workbook_new_opt;
    __typeof__(workbook_add_worksheet) *_Nonnull workbook_add_worksheet;
    __typeof__(workbook_add_format) *_Nonnull workbook_add_format;
    __typeof__(workbook_set_properties) *_Nonnull workbook_set_properties;
    __typeof__(workbook_close) *_Nonnull workbook_close;
    __typeof__(worksheet_write_string) *_Nonnull worksheet_write_string;
    __typeof__(worksheet_write_number) *_Nonnull worksheet_write_number;
    __typeof__(worksheet_write_datetime) *_Nonnull worksheet_write_datetime;
    __typeof__(worksheet_write_blank) *_Nonnull worksheet_write_blank;
    __typeof__(worksheet_set_column) *_Nonnull worksheet_set_column;
    __typeof__(worksheet_freeze_panes) *_Nonnull worksheet_freeze_panes;
    __typeof__(format_set_bold) *_Nonnull format_set_bold;
    __typeof__(format_set_num_format) *_Nonnull format_set_num_format;
    __typeof__(format_set_font_color) *_Nonnull format_set_font_color;
    __typeof__(format_set_bg_color) *_Nonnull format_set_bg_color;
    __typeof__(format_set_pattern) *_Nonnull format_set_pattern;
    __typeof__(lxw_strerror) *_Nonnull strerror;
} folio_xlsx_api;

/* libxlsxwriter's entry points, loaded on the first call (once per process, thread-safe); NULL when
   libxlsxwriter.so.4 is not installed or lacks one of them. */
const folio_xlsx_api *_Nullable folio_xlsx(void);

#endif
