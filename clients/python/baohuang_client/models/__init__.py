""" Contains all the data models used in inputs/outputs """

from .accept_move import AcceptMove
from .accepted_event import AcceptedEvent
from .audit_failure import AuditFailure
from .audit_report import AuditReport
from .auto_result import AutoResult
from .batch_item import BatchItem
from .batch_request import BatchRequest
from .batch_result import BatchResult
from .bot_seat import BotSeat
from .call_move import CallMove
from .called_event import CalledEvent
from .chosen_by import ChosenBy
from .classify_request import ClassifyRequest
from .classify_result import ClassifyResult
from .clock import Clock
from .clock_event import ClockEvent
from .combo_out import ComboOut
from .committed_deal import CommittedDeal
from .committed_dealing import CommittedDealing
from .compare_request import CompareRequest
from .compare_result import CompareResult
from .cover_item import CoverItem
from .created_table import CreatedTable
from .crown_forced_event import CrownForcedEvent
from .crown_passed_event import CrownPassedEvent
from .crown_state import CrownState
from .crown_state_stage import CrownStateStage
from .deal_committed_event import DealCommittedEvent
from .deal_over_event import DealOverEvent
from .deal_request import DealRequest
from .deal_result import DealResult
from .deal_started_event import DealStartedEvent
from .deal_summary import DealSummary
from .deal_void_event import DealVoidEvent
from .dealing import Dealing
from .dealing_method import DealingMethod
from .dealt_event import DealtEvent
from .deck import Deck
from .declare_solo_move import DeclareSoloMove
from .decline_move import DeclineMove
from .declined_event import DeclinedEvent
from .entropy_event import EntropyEvent
from .events_page import EventsPage
from .finished_event import FinishedEvent
from .full_record import FullRecord
from .given_dealing import GivenDealing
from .grab_move import GrabMove
from .grabbed_event import GrabbedEvent
from .health import Health
from .history_event import HistoryEvent
from .index import Index
from .jiefeng_event import JiefengEvent
from .jiefeng_move import JiefengMove
from .kept_deals import KeptDeals
from .left_act import LeftAct
from .left_event import LeftEvent
from .legal_result import LegalResult
from .level import Level
from .log_entry import LogEntry
from .logged_accepted_event import LoggedAcceptedEvent
from .logged_called_event import LoggedCalledEvent
from .logged_clock_event import LoggedClockEvent
from .logged_crown_forced_event import LoggedCrownForcedEvent
from .logged_crown_passed_event import LoggedCrownPassedEvent
from .logged_deal_committed_event import LoggedDealCommittedEvent
from .logged_deal_over_event import LoggedDealOverEvent
from .logged_deal_started_event import LoggedDealStartedEvent
from .logged_deal_void_event import LoggedDealVoidEvent
from .logged_dealt_event import LoggedDealtEvent
from .logged_declined_event import LoggedDeclinedEvent
from .logged_entropy_event import LoggedEntropyEvent
from .logged_finished_event import LoggedFinishedEvent
from .logged_grabbed_event import LoggedGrabbedEvent
from .logged_jiefeng_event import LoggedJiefengEvent
from .logged_left_event import LoggedLeftEvent
from .logged_move_event import LoggedMoveEvent
from .logged_passed_event import LoggedPassedEvent
from .logged_phase_event import LoggedPhaseEvent
from .logged_played_event import LoggedPlayedEvent
from .logged_rebelled_event import LoggedRebelledEvent
from .logged_revealed_event import LoggedRevealedEvent
from .logged_solo_declared_event import LoggedSoloDeclaredEvent
from .logged_token_rotated_event import LoggedTokenRotatedEvent
from .logged_trick_won_event import LoggedTrickWonEvent
from .logged_trustee_event import LoggedTrusteeEvent
from .logged_yielded_event import LoggedYieldedEvent
from .mode import Mode
from .move_act import MoveAct
from .move_by import MoveBy
from .move_check import MoveCheck
from .move_event import MoveEvent
from .new_deal import NewDeal
from .pair import Pair
from .pass_move import PassMove
from .passed_event import PassedEvent
from .phase import Phase
from .phase_event import PhaseEvent
from .platform_move_answer import PlatformMoveAnswer
from .platform_table import PlatformTable
from .play_move import PlayMove
from .played_event import PlayedEvent
from .post_bot import PostBot
from .post_clock import PostClock
from .post_deal import PostDeal
from .post_entropy import PostEntropy
from .post_leave import PostLeave
from .post_move import PostMove
from .post_token import PostToken
from .post_trustee import PostTrustee
from .previous_deal import PreviousDeal
from .problem_document import ProblemDocument
from .problem_item import ProblemItem
from .public_record import PublicRecord
from .public_view import PublicView
from .put_table import PutTable
from .reason import Reason
from .rebel_move import RebelMove
from .rebelled_event import RebelledEvent
from .replay_failure import ReplayFailure
from .replay_out import ReplayOut
from .replay_request import ReplayRequest
from .resolve_request import ResolveRequest
from .resolve_result import ResolveResult
from .resolve_step import ResolveStep
from .reveal_move import RevealMove
from .revealed_event import RevealedEvent
from .rotated_token import RotatedToken
from .ruleset import Ruleset
from .ruleset_base import RulesetBase
from .ruleset_guard_by import RulesetGuardBy
from .ruleset_scoring import RulesetScoring
from .ruleset_spec import RulesetSpec
from .score_result import ScoreResult
from .score_result_winner import ScoreResultWinner
from .scores_request import ScoresRequest
from .seat_move_answer import SeatMoveAnswer
from .seat_record import SeatRecord
from .seat_state import SeatState
from .seat_state_bot import SeatStateBot
from .seat_table import SeatTable
from .seat_view import SeatView
from .seeded_dealing import SeededDealing
from .sides import Sides
from .snapshot import Snapshot
from .snapshot_request import SnapshotRequest
from .solo_declared_event import SoloDeclaredEvent
from .spectator_move_answer import SpectatorMoveAnswer
from .spectator_table import SpectatorTable
from .suggest_request import SuggestRequest
from .suggest_result import SuggestResult
from .table_legal_moves import TableLegalMoves
from .table_state import TableState
from .tally import Tally
from .token_rotated_event import TokenRotatedEvent
from .top_play import TopPlay
from .transfer import Transfer
from .tribute import Tribute
from .tribute_request import TributeRequest
from .tribute_result import TributeResult
from .trick import Trick
from .trick_circle import TrickCircle
from .trick_won_event import TrickWonEvent
from .trustee_act import TrusteeAct
from .trustee_cause import TrusteeCause
from .trustee_event import TrusteeEvent
from .trustee_level import TrusteeLevel
from .validate_request import ValidateRequest
from .validate_result import ValidateResult
from .webhook import Webhook
from .yield_move import YieldMove
from .yielded_event import YieldedEvent

__all__ = (
    "AcceptedEvent",
    "AcceptMove",
    "AuditFailure",
    "AuditReport",
    "AutoResult",
    "BatchItem",
    "BatchRequest",
    "BatchResult",
    "BotSeat",
    "CalledEvent",
    "CallMove",
    "ChosenBy",
    "ClassifyRequest",
    "ClassifyResult",
    "Clock",
    "ClockEvent",
    "ComboOut",
    "CommittedDeal",
    "CommittedDealing",
    "CompareRequest",
    "CompareResult",
    "CoverItem",
    "CreatedTable",
    "CrownForcedEvent",
    "CrownPassedEvent",
    "CrownState",
    "CrownStateStage",
    "DealCommittedEvent",
    "Dealing",
    "DealingMethod",
    "DealOverEvent",
    "DealRequest",
    "DealResult",
    "DealStartedEvent",
    "DealSummary",
    "DealtEvent",
    "DealVoidEvent",
    "Deck",
    "DeclareSoloMove",
    "DeclinedEvent",
    "DeclineMove",
    "EntropyEvent",
    "EventsPage",
    "FinishedEvent",
    "FullRecord",
    "GivenDealing",
    "GrabbedEvent",
    "GrabMove",
    "Health",
    "HistoryEvent",
    "Index",
    "JiefengEvent",
    "JiefengMove",
    "KeptDeals",
    "LeftAct",
    "LeftEvent",
    "LegalResult",
    "Level",
    "LogEntry",
    "LoggedAcceptedEvent",
    "LoggedCalledEvent",
    "LoggedClockEvent",
    "LoggedCrownForcedEvent",
    "LoggedCrownPassedEvent",
    "LoggedDealCommittedEvent",
    "LoggedDealOverEvent",
    "LoggedDealStartedEvent",
    "LoggedDealtEvent",
    "LoggedDealVoidEvent",
    "LoggedDeclinedEvent",
    "LoggedEntropyEvent",
    "LoggedFinishedEvent",
    "LoggedGrabbedEvent",
    "LoggedJiefengEvent",
    "LoggedLeftEvent",
    "LoggedMoveEvent",
    "LoggedPassedEvent",
    "LoggedPhaseEvent",
    "LoggedPlayedEvent",
    "LoggedRebelledEvent",
    "LoggedRevealedEvent",
    "LoggedSoloDeclaredEvent",
    "LoggedTokenRotatedEvent",
    "LoggedTrickWonEvent",
    "LoggedTrusteeEvent",
    "LoggedYieldedEvent",
    "Mode",
    "MoveAct",
    "MoveBy",
    "MoveCheck",
    "MoveEvent",
    "NewDeal",
    "Pair",
    "PassedEvent",
    "PassMove",
    "Phase",
    "PhaseEvent",
    "PlatformMoveAnswer",
    "PlatformTable",
    "PlayedEvent",
    "PlayMove",
    "PostBot",
    "PostClock",
    "PostDeal",
    "PostEntropy",
    "PostLeave",
    "PostMove",
    "PostToken",
    "PostTrustee",
    "PreviousDeal",
    "ProblemDocument",
    "ProblemItem",
    "PublicRecord",
    "PublicView",
    "PutTable",
    "Reason",
    "RebelledEvent",
    "RebelMove",
    "ReplayFailure",
    "ReplayOut",
    "ReplayRequest",
    "ResolveRequest",
    "ResolveResult",
    "ResolveStep",
    "RevealedEvent",
    "RevealMove",
    "RotatedToken",
    "Ruleset",
    "RulesetBase",
    "RulesetGuardBy",
    "RulesetScoring",
    "RulesetSpec",
    "ScoreResult",
    "ScoreResultWinner",
    "ScoresRequest",
    "SeatMoveAnswer",
    "SeatRecord",
    "SeatState",
    "SeatStateBot",
    "SeatTable",
    "SeatView",
    "SeededDealing",
    "Sides",
    "Snapshot",
    "SnapshotRequest",
    "SoloDeclaredEvent",
    "SpectatorMoveAnswer",
    "SpectatorTable",
    "SuggestRequest",
    "SuggestResult",
    "TableLegalMoves",
    "TableState",
    "Tally",
    "TokenRotatedEvent",
    "TopPlay",
    "Transfer",
    "Tribute",
    "TributeRequest",
    "TributeResult",
    "Trick",
    "TrickCircle",
    "TrickWonEvent",
    "TrusteeAct",
    "TrusteeCause",
    "TrusteeEvent",
    "TrusteeLevel",
    "ValidateRequest",
    "ValidateResult",
    "Webhook",
    "YieldedEvent",
    "YieldMove",
)
