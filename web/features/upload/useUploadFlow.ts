import { useEffect, useRef, useState } from 'react';
import { runUpload, type UploadDeps, type UploadFields, type UploadFlow, type UploadRun } from './runUpload.ts';

export { finishForm, uploadErrorText, uploadForm, type UploadFields, type UploadFlow } from './runUpload.ts';

/**
 * The upload form's flow (runUpload.ts) as React state. Leaving the page stops the upload in
 * flight but keeps a resumable upload's bytes on the server, so choosing the same file again
 * carries on; `cancel` stops it and deletes them.
 */
export function useUploadFlow(owner: string, deps?: UploadDeps) {
  const [flow, setFlow] = useState<UploadFlow>({ status: 'idle' });
  const current = useRef<UploadRun | null>(null);
  // A large video whose bytes all arrived while the finish request failed is only finished on the next try.
  const uploaded = useRef<{ video: File; uploadId: string } | null>(null);

  useEffect(() => {
    const runs = current;
    return () => runs.current?.stop(false);
  }, []);

  const start = (fields: UploadFields) => {
    current.current?.stop(false);
    const known = uploaded.current?.video === fields.video ? uploaded.current.uploadId : null;
    const run = runUpload(fields, {
      owner,
      deps,
      uploadedId: known,
      onVideoUploaded: (uploadId) => void (uploaded.current = { video: fields.video, uploadId }),
      onChange: (next) => {
        // Refused (4xx) or stored: the upload id is spent either way.
        if (next.status === 'done' || (next.status === 'failed' && next.httpStatus !== null && next.httpStatus >= 400 && next.httpStatus < 500)) {
          uploaded.current = null;
        }
        setFlow(next);
      },
    });
    current.current = run;
    return run.finished;
  };

  const cancel = () => {
    current.current?.stop(true);
    current.current = null;
    uploaded.current = null;
    setFlow({ status: 'cancelled' });
  };

  return { flow, start, cancel };
}
