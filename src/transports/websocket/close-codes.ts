/** The close codes the WebSocket transport sends (RFC 6455, section 7.4.1). */
export const WS_CLOSE_CODE = Object.freeze({
  /** The server is shutting down. */
  goingAway: 1001,
  /** The client does not read what it is sent fast enough (WS_MAX_BUFFERED). */
  slowReader: 1008,
  /** The client kept sending past its address's message budget (WS_MAX_MESSAGES_PER_SECOND). */
  messageFlood: 1008,
  /** A frame larger than four times WS_MAX_MESSAGE_SIZE. */
  frameTooLarge: 1009,
});
