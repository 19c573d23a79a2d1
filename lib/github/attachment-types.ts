// Files attached to issues and comments, as the gateway reads them: types only.

/** What one file attached to an issue or comment holds, or why it could not be had. */
export type AttachmentDownload =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; why: string; /** It is larger than the cap. */ tooLarge?: true };

export type DownloadOptions = {
  /** Bytes read at most; a larger file is answered `tooLarge` without reading the rest. */
  maxBytes: number;
  /** Whether a redirect to this URL may be followed. */
  mayFollow: (url: string) => boolean;
  signal?: AbortSignal;
};

/** Files attached to issues and comments (GitHub's user attachments), read with the gateway's token. */
export interface AttachmentReads {
  /** Never rejects: a failure is an answer that says why. The caller checked `url` is GitHub's. */
  download(url: string, options: DownloadOptions): Promise<AttachmentDownload>;
}
