package io.tickwheel.server.route;

import io.tickwheel.server.route.Forwarder.Answer;
import io.tickwheel.server.scheduler.ReadOutcome;
import io.tickwheel.server.scheduler.Refusal;
import io.tickwheel.server.scheduler.TopicInfo;
import io.tickwheel.server.scheduler.WriteOutcome;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns an owner's answer to an {@link InternalCall} ({@link InternalCodec#answer}) back into the domain outcome the
 * owner's scheduler gave, so this node's edge answers with the owner's status and body ({@link InternalAnswer#write},
 * {@link InternalAnswer#read}). An answer this node cannot read (another version, a proxy's page) is a
 * {@link Refusal.Remote} 502 naming it.
 *
 * <p>Stateless, thread safe.
 */
final class ForwardedAnswers {

  private ForwardedAnswers() {}

  /** A single write's outcome ({@link InternalCall.Upsert}, {@link InternalCall.OnTimer}). */
  static WriteOutcome write(InternalCall call, String id, Answer a) {
    try {
      return InternalAnswer.write(id, (InternalAnswer.Item) InternalCodec.answer(call, a));
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  /** A read of one timer. */
  static ReadOutcome read(InternalCall call, String id, Answer a) {
    try {
      return InternalAnswer.read(id, (InternalAnswer.Item) InternalCodec.answer(call, a));
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  /** The outcomes of a batch's items ({@code ids} in order), or one refusal for the whole call. */
  static Object items(InternalCall call, List<String> ids, Answer a) {
    try {
      InternalAnswer got = InternalCodec.answer(call, a);
      if (got instanceof InternalAnswer.Refused r) {
        return InternalAnswer.refusal(null, r);
      }
      List<InternalAnswer.Item> items = ((InternalAnswer.Items) got).items();
      List<WriteOutcome> out = new ArrayList<>(ids.size());
      for (int i = 0; i < ids.size(); i++) {
        out.add(InternalAnswer.write(ids.get(i), items.get(i)));
      }
      return out;
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  /** A forwarded topic listing, or a refusal. */
  static Object topics(InternalCall call, Answer a) {
    try {
      InternalAnswer got = InternalCodec.answer(call, a);
      if (got instanceof InternalAnswer.Refused r) {
        return InternalAnswer.refusal(null, r);
      }
      List<TopicInfo> topics = ((InternalAnswer.TopicPage) got).topics();
      return topics;
    } catch (RuntimeException e) {
      return garbled(a, e);
    }
  }

  private static Refusal garbled(Answer a, RuntimeException e) {
    return new Refusal.Remote(502, "unavailable", "the partition's owner gave an answer this node cannot read (HTTP "
        + a.status() + "): " + e.getMessage(), null, 1);
  }
}
