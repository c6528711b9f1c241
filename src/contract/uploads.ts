// Upload limits both sides state: the page checks them before sending, the server enforces them.

/** The spec's limit for Metamorphose and Background Swap uploads (5242880 bytes). */
export const UPLOAD_LIMIT_5MB = 5 * 1024 * 1024;

/** The spec's message when such an upload is larger. */
export const UPLOAD_LIMIT_5MB_MESSAGE = 'File size must be less than 5MB';
