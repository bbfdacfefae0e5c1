import { createContext, useContext } from "react";

/**
 * This response's CSP nonce (made per request in server.js), for the inline scripts Remix writes. In the
 * browser it is empty: the scripts are already in the page, and browsers hide the attribute from scripts.
 */
export const NonceContext = createContext("");
export const useNonce = () => useContext(NonceContext);
