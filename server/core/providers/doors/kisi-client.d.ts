/** kisi-client 8 ships no types: the part of it we use (its constructor takes axios's settings). */
declare module "kisi-client" {
  export default class Kisi {
    constructor(config?: { baseURL?: string; timeout?: number; headers?: Record<string, string> });
    client: { patch(path: string, data?: unknown): Promise<{ data: unknown }> };
    setLoginSecret(secret: string | null): void;
    get<T = unknown>(path: string, params?: Record<string, unknown>): Promise<T>;
    post<T = unknown>(path: string, data?: unknown): Promise<T>;
    put<T = unknown>(path: string, data?: unknown): Promise<T>;
    delete<T = unknown>(path: string, params?: Record<string, unknown>): Promise<T>;
  }
}
