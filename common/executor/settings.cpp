/* The readers of the HIPCPU_* settings (settings.h): every read of one, the
 * executor's and its tracer's, comes here, so that a bad value is refused in
 * one form. executor_internal.h: the parts. */
#include "executor_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *hipcpu_setting_text(hipcpu_env id) {
    const char *value = getenv(hipcpu_settings[int(id)].name);
    return value ? value : "";
}

unsigned long long hipcpu_setting_value(hipcpu_env id) {
    const hipcpu_setting &s = hipcpu_settings[int(id)];
    const char *value = hipcpu_setting_text(id);
    if (!*value) return s.fallback;
    if (s.kind == HIPCPU_TEXT) return 1;
    if (s.kind == HIPCPU_CHOICE) {
        unsigned long long index = 0;
        for (const char *word = s.choices;; word += strcspn(word, "|") + 1, index++) {
            const size_t length = strcspn(word, "|");
            if (strlen(value) == length && strncmp(value, word, length) == 0) return index;
            if (!word[length]) break;
        }
    } else {
        char *end;
        errno = 0;
        const unsigned long long n = strtoull(value, &end, s.base);
        if (*end == '\0' && errno == 0 && *value != '-' && n >= s.low && n <= s.high) return n;
    }
    hipcpu_die("%s must be %s, not '%s'", s.name, s.what, value);
}

namespace hipcpu_exec {

/* A setting that only the trace build reads stops a build without the
 * tracer at its first launch, rather than silently counting nothing. */
void refuse_trace_settings() {
    static bool checked;
    if (hipcpu_hooks::kTraceBuild || checked) return;
    checked = true;
    for (const hipcpu_setting &s : hipcpu_settings)
        if (s.needs_trace && *hipcpu_setting_text(hipcpu_env(&s - hipcpu_settings)))
            hipcpu_die("%s needs the executor's trace build (make profile-N or make racecheck-N); this program "
                       "was built without it", s.name);
}

} /* namespace hipcpu_exec */
