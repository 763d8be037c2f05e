/**
 * A closed session past its retention, in an object that also holds the order it placed: the
 * session's rows go (reads answer not_found, as for a session never written), the order, its
 * owner and the ledger stay.
 */
export function clearSession(sql: SqlStorage): void {
  sql.exec("DELETE FROM checkout; DELETE FROM meta; DELETE FROM completion_attempt; DELETE FROM payment_verification");
}
