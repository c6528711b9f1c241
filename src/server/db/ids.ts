// Row ids are PostgreSQL uuids: anything else handed to a uuid column is a database cast error
// (a 500), so ids from URLs are checked for the exact shape first and answered as "not found".
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (id: string): boolean => UUID.test(id);
