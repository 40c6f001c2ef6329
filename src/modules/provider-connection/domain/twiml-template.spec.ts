import { renderTwimlTemplate, templateFields } from './twiml-template.js';

describe('TwiML template', () => {
  it('fills input data placeholders, nested ones too, XML-escaped', () => {
    const twiml = renderTwimlTemplate(
      '<Response><Say>Hello {{input_data.patient.first_name}}, your visit is on {{ input_data.day }} at {{input_data.time}}.</Say></Response>',
      { patient: { first_name: 'Ada <&> "Lovelace"' }, day: 'Tuesday', time: 10 },
    );
    expect(twiml).toBe(
      '<Response><Say>Hello Ada &lt;&amp;&gt; &quot;Lovelace&quot;, your visit is on Tuesday at 10.</Say></Response>',
    );
  });

  it('leaves missing and non-scalar fields empty, and other braces alone', () => {
    expect(
      renderTwimlTemplate('{{input_data.nope}}|{{input_data.list}}|{{other}}', { list: [1] }),
    ).toBe('||{{other}}');
  });

  it('lists the fields a template reads, once each, in order of first use', () => {
    expect(
      templateFields(
        '{{ input_data.patient.first_name }} {{input_data.day}} {{input_data.patient.first_name}} {{other}} {{input_data.}}',
      ),
    ).toEqual([['patient', 'first_name'], ['day']]);
    expect(templateFields('<Response/>')).toEqual([]);
  });
});
