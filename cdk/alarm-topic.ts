import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

/**
 * The topic every responder alarm notifies (subscribe an address, or AWS Chatbot for Slack), and
 * the alarms themselves: each one fires on a single occurrence within five minutes.
 */
export class AlarmTopic extends Construct {
  /** The SNS topic. */
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: { email?: string }) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Cilium Responder alarms', enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }

  /** An alarm at one or more in a five-minute period of `metric`, notifying the topic. */
  alarm(scope: Construct, id: string, metric: IMetric, description: string): Alarm {
    const alarm = new Alarm(scope, id, {
      metric,
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    return alarm;
  }
}

export const ALARM_PERIOD = Duration.minutes(5);
