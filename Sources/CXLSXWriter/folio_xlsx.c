#include "folio_xlsx.h"

#include <dlfcn.h>
#include <pthread.h>

static folio_xlsx_api api;
static int available;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Each entry point by name into its field; 0 when one is missing. */
#define FOLIO_XLSX_LOAD(field, symbol)                                    \
    do {                                                                  \
        void *address = dlsym(library, #symbol);                          \
        if (address == NULL) return 0;                                    \
        *(void **)&api.field = address;                                   \
    } while (0)

static int folio_load_entry_points(void *library) {
    FOLIO_XLSX_LOAD(workbook_new_opt, workbook_new_opt);
    FOLIO_XLSX_LOAD(workbook_add_worksheet, workbook_add_worksheet);
    FOLIO_XLSX_LOAD(workbook_add_format, workbook_add_format);
    FOLIO_XLSX_LOAD(workbook_set_properties, workbook_set_properties);
    FOLIO_XLSX_LOAD(workbook_close, workbook_close);
    FOLIO_XLSX_LOAD(worksheet_write_string, worksheet_write_string);
    FOLIO_XLSX_LOAD(worksheet_write_number, worksheet_write_number);
    FOLIO_XLSX_LOAD(worksheet_write_datetime, worksheet_write_datetime);
    FOLIO_XLSX_LOAD(worksheet_write_blank, worksheet_write_blank);
    FOLIO_XLSX_LOAD(worksheet_set_column, worksheet_set_column);
    FOLIO_XLSX_LOAD(worksheet_freeze_panes, worksheet_freeze_panes);
    FOLIO_XLSX_LOAD(format_set_bold, format_set_bold);
    FOLIO_XLSX_LOAD(format_set_num_format, format_set_num_format);
    FOLIO_XLSX_LOAD(format_set_font_color, format_set_font_color);
    FOLIO_XLSX_LOAD(format_set_bg_color, format_set_bg_color);
    FOLIO_XLSX_LOAD(format_set_pattern, format_set_pattern);
    FOLIO_XLSX_LOAD(strerror, lxw_strerror);
    return 1;
}

static void folio_load_xlsx(void) {
    void *library = dlopen("libxlsxwriter.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    available = folio_load_entry_points(library);
}

const folio_xlsx_api *folio_xlsx(void) {
    pthread_once(&once, folio_load_xlsx);
    return available ? &api : NULL;
}
