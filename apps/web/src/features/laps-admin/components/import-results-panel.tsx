import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { ImportResponse } from '@paddock/contract/laps';
import { ApiError, apiUrl } from '../../../lib/api-client';
import { getSession } from '../../../lib/auth-store';
import { errorMessage } from '../../../lib/error-message';

type XmlSim = 'rf2' | 'lmu';

/** Sends the file as it is: ACC writes UTF-16, which only the server decodes. */
async function uploadResults({
  file,
  xmlSim,
}: {
  file: File;
  xmlSim: XmlSim;
}): Promise<ImportResponse> {
  const token = getSession()?.token;
  // rFactor 2 and Le Mans Ultimate write the same XML: the file cannot say which sim it is.
  const query = file.name.toLowerCase().endsWith('.xml') ? `?sim=${xmlSim}` : '';
  const response = await fetch(apiUrl(`/laps/import${query}`), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/octet-stream',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: file,
  });
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : null;
  if (!response.ok) throw new ApiError(response.status, body, body ? '' : text);
  return body as ImportResponse;
}

/** Staff upload a results file of AC, ACC, rFactor 2 / LMU or RaceRoom (issue 31). */
export function ImportResultsPanel() {
  const client = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [xmlSim, setXmlSim] = useState<XmlSim>('rf2');
  const upload = useMutation({
    mutationFn: uploadResults,
    onSuccess: () => client.invalidateQueries(),
  });
  return (
    <section aria-labelledby="import-title">
      <h2 id="import-title" className="h4">
        Import Results
      </h2>
      <p className="text-body-secondary">
        A results file from an Assetto Corsa server (<code>results/*.json</code>), an ACC server,
        rFactor 2 or Le Mans Ultimate (<code>UserData/Log/Results/*.xml</code>) or a RaceRoom
        dedicated server. Importing the same file twice adds nothing.
      </p>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          if (file) upload.mutate({ file, xmlSim });
        }}
        className="d-flex flex-wrap gap-2 align-items-end"
      >
        <Form.Group controlId="results-file">
          <Form.Label>Results file</Form.Label>
          <Form.Control
            type="file"
            accept=".json,application/json,.xml,text/xml,application/xml"
            onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
          />
        </Form.Group>
        <Form.Group controlId="results-xml-sim">
          <Form.Label>An XML file is from</Form.Label>
          <Form.Select value={xmlSim} onChange={(e) => setXmlSim(e.target.value as XmlSim)}>
            <option value="rf2">rFactor 2</option>
            <option value="lmu">Le Mans Ultimate</option>
          </Form.Select>
        </Form.Group>
        <Button type="submit" disabled={!file || upload.isPending}>
          Import
        </Button>
      </Form>
      {upload.isError && (
        <Alert variant="danger" className="mt-3">
          {errorMessage(upload.error)}
        </Alert>
      )}
      {upload.isSuccess && upload.data.already_imported && (
        <Alert variant="info" className="mt-3">
          {upload.data.session} at {upload.data.track} was imported before: nothing added.
        </Alert>
      )}
      {upload.isSuccess && !upload.data.already_imported && (
        <Alert variant="success" className="mt-3">
          {upload.data.session} at {upload.data.track}: {upload.data.laps_added} laps added
          {upload.data.laps_skipped ? `, ${upload.data.laps_skipped} already imported` : ''};{' '}
          {upload.data.drivers_matched} of {upload.data.drivers} drivers matched to racers.
        </Alert>
      )}
    </section>
  );
}
