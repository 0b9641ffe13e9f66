/* datadir: where the data rematscope ships with is — the themes, the sample
 * routines and the bundled hardware profiles — for a binary in its build
 * tree, an installed one, or an installed one whose prefix was moved.  The
 * one place that knows; theme.c, target.c and the listings ask it. */
#ifndef RS_DATADIR_H
#define RS_DATADIR_H

/* The folder of theme files (NAME.theme): $RS_THEMES when set, else
 * EXE/../share/rematscope/themes (EXE the folder of the running binary,
 * from /proc/self/exe) when it exists, else the source tree's themes/ the
 * binary was built from when it exists.  When none exists, the installed
 * place, so a message names where the themes belong.  The string lives as
 * long as the process; the first call of each is from one thread. */
const char *datadir_themes(void);

/* The sample routines' folder, found as the themes are (EXE/../share/
 * rematscope/samples, else the source tree's samples/); no variable. */
const char *datadir_samples(void);

/* The bundled profiles CSV: $RS_PROFILES when set, else profiles.csv in
 * datadir_samples(). */
const char *datadir_profiles(void);

#endif
