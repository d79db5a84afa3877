/* verbs.h - each verb's entry point, called by main.c with the verb's own argv (argv[0] is the
 * verb); each returns the command's exit code. */
#ifndef CLRA_CLI_VERBS_H
#define CLRA_CLI_VERBS_H

int cmd_attach(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_setenv(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_perfmap(int argc, char **argv);
int cmd_launch(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_counters(int argc, char **argv);
int cmd_counters_list(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_startup_hook(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_stack(int argc, char **argv);
int cmd_heap(int argc, char **argv);

#endif
