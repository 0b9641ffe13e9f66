/* `rematscope config`: each effective setting and where it comes from
 * (DESIGN §11): the command line, FILE:LINE, the profile, or the default. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/json.h"
#include "config.h"
#include "fail.h"
#include "target.h"

int cmd_config(const cmdline_t *c)
{
    rs_error_t err;
    error_clear(&err);
    target_t t;
    memset(&t, 0, sizeof t);
    if (target_settings(c, &t, &err)) {
        target_free(&t);
        return fail_print(&err);
    }
    const config_t *f = c->config;
    char def[4096] = "";
    bool has_default = config_default_path(def, sizeof def);
    const char *file = f && f->path ? f->path : NULL;
    char src[4200];
    if (c->json) {
        json_t j;
        json_init(&j, stdout);
        json_obj_begin(&j, NULL);
        if (file)
            json_str(&j, "file", file);
        else
            json_null(&j, "file");
        json_obj_begin(&j, "settings");
        for (int k = 0; k < CONFIG_N_KEYS; k++) {
            json_obj_begin(&j, config_key_name((config_key_t)k));
            json_str(&j, "value", t.settings.value[k]);
            settings_source(&t.settings, f, (config_key_t)k, src, sizeof src);
            json_str(&j, "source", src);
            json_obj_end(&j);
        }
        json_obj_end(&j);
        json_obj_end(&j);
        json_finish(&j);
    } else {
        if (file)
            printf("# config file %s\n", file);
        else if (has_default)
            printf("# no config file (%s does not exist)\n", def);
        else
            printf("# no config file (neither XDG_CONFIG_HOME nor HOME is set)\n");
        for (int k = 0; k < CONFIG_N_KEYS; k++) {
            settings_source(&t.settings, f, (config_key_t)k, src, sizeof src);
            printf("%-17s = %-24s # %s\n", config_key_name((config_key_t)k), t.settings.value[k], src);
        }
    }
    target_free(&t);
    return 0;
}
