import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { PageTitle } from '../../../components/page-title';
import { PaymentMethodPanel } from '../../../components/payment-method/payment-method-panel';
import { getSession, useSession } from '../../../lib/auth-store';
import { pathTo, safeRedirect } from '../../../lib/routes';
import { useEndSession } from '../../../lib/session';
import { SignupDetailsStep } from '../components/signup-details-step';
import { SignupEmailStep } from '../components/signup-email-step';
import { signupPrompt } from '../signup-prompt';

const STEPS = ['Email', 'Your Details', 'Payment Method'] as const;

function parseStep(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n < STEPS.length ? n : 0;
}

function parseLocation(value: string | null): number | null {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * /signup (spec §2): step 0 e-mail, step 1 details, step 2 payment method (skippable).
 * Visiting it starts a new account, so an old session is dropped — unless `keepToken` is set
 * or a logged-in user resumes at a later `step`. Each step is written to the URL so a reload
 * resumes where the user was.
 */
export default function SignupScreen() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const endSession = useEndSession();
  const session = useSession();
  const redirect = params.get('redirect');
  const location = parseLocation(params.get('location'));
  const requested = parseStep(params.get('step'));
  const keepToken = params.has('keepToken');

  const [step, setStep] = useState(() => (requested > 0 && getSession() ? requested : 0));
  const [cardSaved, setCardSaved] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (!keepToken && !(requested > 0 && getSession())) endSession();
  }, [keepToken, requested, endSession]);

  const goTo = (next: number) => {
    setStep(next);
    setParams(
      (p) => {
        const q = new URLSearchParams(p);
        q.set('step', String(next));
        q.set('keepToken', 'true');
        return q;
      },
      { replace: true },
    );
  };
  const finish = () => navigate(safeRedirect(redirect, pathTo('reservationsAdvanced')));
  const prompt = signupPrompt(redirect);
  // A later step without a session (it expired, or the link was shared) starts over.
  const shown = step > 0 && !session ? 0 : step;

  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <PageTitle>Sign Up</PageTitle>
      {prompt && shown === 0 && <Alert variant="info">{prompt}</Alert>}
      <ol className="list-inline mb-4" aria-label="Signup progress">
        {STEPS.map((name, index) => (
          <li
            key={name}
            className={`list-inline-item me-3 ${index === shown ? 'fw-bold' : 'text-body-secondary'}`}
            aria-current={index === shown ? 'step' : undefined}
          >
            {index + 1}. {name}
          </li>
        ))}
      </ol>
      <h2 className="h4 mb-3">{STEPS[shown]}</h2>

      {shown === 0 && (
        <>
          <SignupEmailStep redirect={redirect} location={location} onDone={() => goTo(1)} />
          <p className="mt-3">
            Already have an account? <Link to={pathTo('login', {}, { redirect })}>Log In</Link>
          </p>
        </>
      )}
      {shown === 1 && session && (
        <SignupDetailsStep
          userId={session.userId}
          defaultLocation={location}
          onDone={() => goTo(2)}
        />
      )}
      {shown === 2 && session && (
        <>
          <PaymentMethodPanel
            userId={session.userId}
            headingLevel={3}
            onSaved={() => setCardSaved(true)}
          />
          <div className="d-flex justify-content-between align-items-center">
            {!cardSaved && (
              <Button variant="link" onClick={finish}>
                Skip for now
              </Button>
            )}
            {cardSaved && <Button onClick={finish}>Next Step</Button>}
          </div>
        </>
      )}
    </section>
  );
}
