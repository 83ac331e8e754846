/** The envelope a scripted model answers with (plain: worker processes started by the tests import it too). */

/** A v4 reply envelope holding `program` as its ACTIONS. */
export const envelope = (program: string): string => ['<<<NSENV:V4:START>>>', '<<<NSENV:V4:USERDATA>>>', '{}', '<<<NSENV:V4:ACTIONS>>>', program, '<<<NSENV:V4:END>>>', ''].join('\n');
