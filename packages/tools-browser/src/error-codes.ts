/** Codes of the errors this package throws (each is in the README's error table). */
export type BrowserErrorCode = 'BROWSER_NOT_FOUND' | 'INVALID_OPTION';
