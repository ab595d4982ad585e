// The CLI's exit codes, one table for every verb (docs/cli.md, "Exit codes").
// A CI script can tell a finding from a mistake in the command line, from
// input that was refused, from a run that failed.

/** Done. */
export const EXIT_OK = 0;
/** A finding (audit: something was lost, duplicated or reordered), or a failure at run time: a port in use, an instance not there, an id it does not have. */
export const EXIT_FAILED = 1;
/** The same code as EXIT_FAILED, for the verbs whose job is to find something. */
export const EXIT_FINDING = EXIT_FAILED;
/** A usage error: an unknown command or flag, a flag without its value, a value out of its bounds: everything the parser and the options schema refuse. */
export const EXIT_USAGE = 2;
/** Input refused: a rule, a preset (name or file), an audit file, or a request the instance answered 400. */
export const EXIT_REJECTED = 3;
