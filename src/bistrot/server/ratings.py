"""Players' ratings: one per profile and game, by openskill's Weng-Lin Plackett-Luce model (made
for teams and for more than two sides).

A finished rated game (:attr:`~bistrot.tablecore.core.TableCore.rated`) is rated by
:func:`rate_game`, which the store runs in the very transaction that stores the game's last
action and result: a game is rated exactly once, or not finished at all.  What it ranked is kept
(``rated_games``: each seat's profile or computer level, team and place), so every rating can be
computed again from the stored results, and each change of a player's rating
(``rating_changes``: the profile's history and recent games).

Computer players play as fixed anchors, one rating per game and level (:data:`ANCHORS`), never
updated.  The figure shown is :func:`shown`: a conservative estimate (``mu - 3 sigma``) on a scale where a
new player starts at 1000.

>>> shown(MODEL.mu, MODEL.sigma)
1000
>>> shown(30.0, 2.0) > shown(30.0, 4.0)
True
"""

from __future__ import annotations

from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import Connection, select

from bistrot.server.schema import profiles, rated_games, rating_changes, ratings

#: The model, with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: Computer players' fixed ratings (mu, sigma) by game and level: medium at a new player's mu, easy
#: and hard where openskill predicts the win rates the arena measured between the levels (Omi's
#: 10-token matches, Oti's two-player games; README, "Computer players"), written by
#: ``python bench/rating_anchors.py``.
ANCHORS: dict[str, dict[str, tuple[float, float]]] = {
    "omi": {"easy": (22.48, 1.0), "medium": (25.0, 1.0), "hard": (26.74, 1.0)},
    "oti": {"easy": (15.97, 1.0), "medium": (25.0, 1.0), "hard": (31.36, 1.0)},
}


def anchor(game: str, level: str | None) -> tuple[float, float]:
    """The fixed rating of ``game``'s computer player of ``level`` (a game without measured
    anchors, or a level without one: a new player's)."""
    return ANCHORS.get(game, {}).get(level or "", (MODEL.mu, 1.0))


#: The rating changes a public profile draws (its last ones, all games together).
HISTORY = 200


def shown(mu: float, sigma: float) -> int:
    """The rating a person sees: ``mu - 3 sigma``, scaled so that a new player has 1000 (40
    points per unit of mu)."""
    return round(1000 + 40 * (mu - 3 * sigma - (MODEL.mu - 3 * MODEL.sigma)))


def rated_teams(
    game: str, places: list[dict[str, Any]], current: dict[str, tuple[float, float]]
) -> tuple[list[list[PlackettLuceRating]], list[float], list[list[str | None]]]:
    """The model's input for a game: its teams of ratings (people's ``current`` ones, new players
    the defaults, computers their anchors), each team's place, and who is in each team (a profile
    id, None for a computer)."""
    by_team: dict[int, list[dict[str, Any]]] = {}
    for seat in places:
        by_team.setdefault(int(seat["team"]), []).append(seat)
    teams: list[list[PlackettLuceRating]] = []
    ranks: list[float] = []
    members: list[list[str | None]] = []
    for team in sorted(by_team):
        seated = by_team[team]
        ratings_of = []
        for seat in seated:
            profile = seat["profile"]
            if profile is None:
                mu, sigma = anchor(game, seat["level"])
            else:
                mu, sigma = current.get(profile, (MODEL.mu, MODEL.sigma))
            ratings_of.append(MODEL.rating(mu=mu, sigma=sigma))
        teams.append(ratings_of)
        ranks.append(float(min(int(seat["place"]) for seat in seated)))
        members.append([seat["profile"] for seat in seated])
    return teams, ranks, members


def rate_game(conn: Connection, table_id: str, game: str, at: float, places: list[dict[str, Any]]) -> None:
    """Rate a finished game, on the connection of the transaction that stores its end: read its
    people's ratings (locked on PostgreSQL until the commit), store the new ones, what was
    ranked and each change."""
    people = sorted({seat["profile"] for seat in places if seat["profile"] is not None})
    held = list(
        conn.execute(
            select(ratings.c.profile, ratings.c.mu, ratings.c.sigma, ratings.c.games)
            .where(ratings.c.game == game, ratings.c.profile.in_(people))
            .with_for_update()
        )
    )
    current = {r.profile: (r.mu, r.sigma) for r in held}
    played = dict.fromkeys(people, 0) | {r.profile: r.games for r in held}
    teams, ranks, members = rated_teams(game, places, current)
    rated = MODEL.rate(teams, ranks=ranks)
    conn.execute(rated_games.insert(), {"table_id": table_id, "game": game, "at": at, "places": places})
    for team, new_team in zip(members, rated, strict=True):
        for profile, new in zip(team, new_team, strict=True):
            if profile is None:
                continue  # an anchor: never updated
            before = current.get(profile, (MODEL.mu, MODEL.sigma))
            row = {"mu": new.mu, "sigma": new.sigma, "games": played[profile] + 1, "updated_at": at}
            if profile in current:
                conn.execute(
                    ratings.update().where(ratings.c.profile == profile, ratings.c.game == game).values(**row)
                )
            else:
                conn.execute(ratings.insert(), {"profile": profile, "game": game, **row})
            conn.execute(
                rating_changes.insert(),
                {
                    "table_id": table_id, "profile": profile, "game": game, "at": at,
                    "mu_before": before[0], "sigma_before": before[1], "mu": new.mu, "sigma": new.sigma,
                },
            )  # fmt: skip


def leaderboard(conn: Connection, game: str, limit: int) -> list[dict[str, Any]]:
    """The best-rated players of ``game`` (at least one rated game), best first."""
    order = ratings.c.mu - 3 * ratings.c.sigma
    rows = conn.execute(
        select(ratings.c.profile, profiles.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.games)
        .join(profiles, profiles.c.id == ratings.c.profile)
        .where(ratings.c.game == game, ratings.c.games > 0)
        .order_by(order.desc(), ratings.c.profile)
        .limit(limit)
    )
    return [
        {"profile": r.profile, "name": r.name, "rating": shown(r.mu, r.sigma), "games": r.games} for r in rows
    ]


def profile_ratings(conn: Connection, profile: str, recent: int) -> dict[str, Any]:
    """A profile's ratings by game, each with its history (the rating after each of the last
    :data:`HISTORY` rated games, oldest first: the profile page's chart), and its ``recent``
    last rated games (newest first), with how each moved its rating: what its public profile
    shows."""
    held = conn.execute(
        select(ratings.c.game, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
            ratings.c.profile == profile
        )
    )
    changes = conn.execute(
        select(rating_changes, rated_games.c.places)
        .join(rated_games, rated_games.c.table_id == rating_changes.c.table_id)
        .where(rating_changes.c.profile == profile)
        .order_by(rating_changes.c.at.desc(), rating_changes.c.table_id)
        .limit(recent)
    )
    points = conn.execute(
        select(rating_changes.c.game, rating_changes.c.at, rating_changes.c.mu, rating_changes.c.sigma)
        .where(rating_changes.c.profile == profile)
        .order_by(rating_changes.c.at.desc(), rating_changes.c.table_id)
        .limit(HISTORY)
    )
    history: dict[str, list[dict[str, Any]]] = {}
    for p in reversed(list(points)):
        history.setdefault(p.game, []).append({"at": p.at, "rating": shown(p.mu, p.sigma)})
    return {
        "ratings": {
            r.game: {"rating": shown(r.mu, r.sigma), "games": r.games, "history": history.get(r.game, [])}
            for r in held
        },
        "recent": [
            {
                "table": c.table_id,
                "game": c.game,
                "at": c.at,
                "place": next(int(s["place"]) for s in c.places if s["profile"] == profile),
                "before": shown(c.mu_before, c.sigma_before),
                "after": shown(c.mu, c.sigma),
                "replay_url": f"/replay/{c.table_id}",
            }
            for c in changes
        ],
    }


def shown_ratings(conn: Connection, game: str, people: list[str]) -> dict[str, int]:
    """The shown ratings in ``game`` of those of ``people`` who have one."""
    if not people:
        return {}
    rows = conn.execute(
        select(ratings.c.profile, ratings.c.mu, ratings.c.sigma).where(
            ratings.c.game == game, ratings.c.profile.in_(sorted(set(people)))
        )
    )
    return {r.profile: shown(r.mu, r.sigma) for r in rows}
