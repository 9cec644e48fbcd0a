/** Said plainly wherever a malicious version is shown: who may still download it. */
export function QuarantineNotice({ canDownload }: { canDownload: boolean }) {
  return (
    <div className="alert alert-error" role="note">
      <p className="alert-title">This version is quarantined</p>
      <p>
        The scanner found it malicious.{' '}
        {canDownload
          ? 'Only its owner and administrators can download it; you can, to review it. Do not install it.'
          : 'It cannot be downloaded; only its owner and administrators can, to review it.'}
      </p>
    </div>
  );
}
