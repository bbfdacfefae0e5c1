/**
 * The server's runtime for the API route. Through a ".server" module so the browser build never follows the import
 * into the server (its error reporting SDK needs Node built-ins a browser cannot have).
 */
export { getRuntime } from "../../server/runtime";
