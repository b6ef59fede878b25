// toolgate/client: the reference server's WebSocket client (no React).
export * from './websocket-session';
export * from './protocol';
