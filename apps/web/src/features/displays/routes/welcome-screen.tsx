import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import Carousel from 'react-bootstrap/Carousel';
import { PageTitle } from '../../../components/page-title';
import { boardsQuery } from '../../../lib/api/boards-queries';
import { BoardView } from '../../../components/leaderboard/board-view';
import { PriceList } from '../components/price-list';
import { TvScreen } from '../components/tv-screen';

/** Spec §4: a slide every 10 s, the first held 30 s, the whole page reloaded every 10 minutes. */
export const WELCOME_TIMING = { firstMs: 30_000, slideMs: 10_000, reloadMs: 600_000 };

/** Welcome — spec customer §2 /welcome: the price list, then one slide per board. */
export default function WelcomeScreen() {
  const boards = useQuery({ ...boardsQuery(), refetchInterval: 60_000 });
  const slides = 1 + (boards.data?.length ?? 0);
  // Steps count up; the slide shown is the step modulo the slides, so the boards arriving (or a
  // board added at a refetch) does not restart the price list's 30 s hold.
  const [step, setStep] = useState(0);
  const active = step % slides;
  const holding = active === 0;

  useEffect(() => {
    const timer = setTimeout(
      () => setStep((s) => s + 1),
      holding ? WELCOME_TIMING.firstMs : WELCOME_TIMING.slideMs,
    );
    return () => clearTimeout(timer);
  }, [step, holding]);
  useEffect(() => {
    const timer = setTimeout(() => window.location.reload(), WELCOME_TIMING.reloadMs);
    return () => clearTimeout(timer);
  }, []);

  return (
    <TvScreen>
      <PageTitle visuallyHidden>Welcome</PageTitle>
      <Carousel
        activeIndex={active}
        onSelect={setStep}
        interval={null}
        controls={false}
        indicators={false}
        pause={false}
        fade
      >
        <Carousel.Item>
          <PriceList headingLevel={2} />
        </Carousel.Item>
        {boards.data?.map((board) => (
          <Carousel.Item key={board.id}>
            <div className="paddock-tv py-4">
              <BoardView board={board} count={15} refetchMs={60_000} />
            </div>
          </Carousel.Item>
        ))}
      </Carousel>
    </TvScreen>
  );
}
