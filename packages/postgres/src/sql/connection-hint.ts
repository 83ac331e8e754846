/**
 * What to do about a connection the server refused, by its SQLSTATE. The
 * server's words ("database "nodb" does not exist", "password authentication
 * failed for user "app"") say what failed, not how to get past it; every
 * statement a store runs can be the first to meet it.
 */

/** The hint for a refusal with `state` (`; …`), or '' for any other. */
export function connectionHint(state: string | undefined): string {
  switch (state) {
    // invalid_catalog_name: the URL names a database the server does not have.
    case '3D000':
      return '; create it first (createdb NAME, or CREATE DATABASE NAME as a role that may), or name an existing database in the URL';
    // invalid_password: the user or its password is wrong.
    case '28P01':
      return '; check the user in the URL and its password (PGPASSWORD or a ~/.pgpass line; never in the URL of a config file)';
    // invalid_authorization_specification: no pg_hba.conf line lets this user in from here (or the role may not log in).
    case '28000':
      return "; the server's pg_hba.conf lets no such connection in (this user, database and address), or the role may not log in: ask its administrator";
    default:
      return '';
  }
}
