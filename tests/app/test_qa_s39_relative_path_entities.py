"""A path entity is the file it names: 'mnemon remember "Deploy with ./scripts/deploy.sh staging"' stored the entity
'/scripts/deploy.sh' (an absolute path that does not exist), so it linked to no memory naming scripts/deploy.sh, and
'.github/workflows/ci.yml' was stored as 'github/workflows/ci.yml'."""
from __future__ import annotations

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities, merge_entities


def test_a_path_written_from_here_links_to_the_same_path_written_plain(mem: Mnemon) -> None:
    plain = mem.remember("scripts/deploy.sh reads the target from DEPLOY_ENV")
    dotted = mem.remember("Deploy to staging with ./scripts/deploy.sh staging --skip-migrations")
    assert mem.show(dotted["id"])["entities"] == ["scripts/deploy.sh"]
    linked = {e["target_id"] if e["source_id"] == dotted["id"] else e["source_id"]
              for e in mem.show(dotted["id"])["edges"] if e["edge_type"] == "entity"}
    assert plain["id"] in linked


def test_a_dot_folder_keeps_its_dot_and_a_sentence_its_period() -> None:
    assert extract_entities("The GKE pipeline is in .github/workflows/ci.yml.") == ["GKE", ".github/workflows/ci.yml"]
    assert extract_entities("see ../lib/util.py and `./manage.py migrate`") == ["lib/util.py", "manage.py"]
    assert merge_entities([".NET", "kafka."], ["Kafka"]) == [".NET", "Kafka"]
