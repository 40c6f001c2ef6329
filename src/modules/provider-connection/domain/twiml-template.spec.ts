import { renderTwimlTemplate, templateFields, unknownPlaceholder } from './twiml-template.js';

describe('TwiML template', () => {
  it('fills input data placeholders, nested ones too, XML-escaped', () => {
    const twiml = renderTwimlTemplate(
      '<Response><Say>Hello {{input_data.patient.first_name}}, your visit is on {{ input_data.day }} at {{input_data.time}}.</Say></Response>',
      { inputData: { patient: { first_name: 'Ada <&> "Lovelace"' }, day: 'Tuesday', time: 10 } },
    );
    expect(twiml).toBe(
      '<Response><Say>Hello Ada &lt;&amp;&gt; &quot;Lovelace&quot;, your visit is on Tuesday at 10.</Say></Response>',
    );
  });

  it("fills patient placeholders from the target's patient, XML-escaped", () => {
    expect(
      renderTwimlTemplate(
        '<Say>Hi {{patient.first_name}} {{ patient.last_name }}, born {{patient.date_of_birth}} ({{patient.extra_data.pcp}})</Say>',
        {
          inputData: { first_name: 'not this one' },
          patient: {
            first_name: 'Maria',
            last_name: "O'Neil",
            date_of_birth: '1962-03-14',
            extra_data: { pcp: 'Dr. Kim' },
          },
        },
      ),
    ).toBe('<Say>Hi Maria O&apos;Neil, born 1962-03-14 (Dr. Kim)</Say>');
    expect(renderTwimlTemplate('Hi {{patient.first_name}}.', { inputData: {} })).toBe('Hi .');
  });

  it('leaves missing and non-scalar fields empty, and other braces alone', () => {
    expect(
      renderTwimlTemplate('{{input_data.nope}}|{{input_data.list}}|{{other}}|{{patient.x}}', {
        inputData: { list: [1] },
        patient: { x: { y: 1 } },
      }),
    ).toBe('||{{other}}|');
  });

  it('lists the fields a template reads from their root, once each, in order of first use', () => {
    expect(
      templateFields(
        '{{ input_data.patient.first_name }} {{patient.first_name}} {{input_data.day}} {{input_data.patient.first_name}} {{other}} {{input_data.}} {{patient}}',
      ),
    ).toEqual([
      ['input_data', 'patient', 'first_name'],
      ['patient', 'first_name'],
      ['input_data', 'day'],
    ]);
    expect(templateFields('<Response/>')).toEqual([]);
  });

  it('names the first placeholder a template may not hold', () => {
    expect(
      unknownPlaceholder(
        'Hi {{patient.first_name}} {{ patient.last_name }} {{patient.date_of_birth}} ' +
          '{{patient.external_id}} {{patient.phone_number}} {{patient.extra_data.pcp}} {{input_data.a.b}}',
      ),
    ).toBeNull();
    expect(unknownPlaceholder('Hi {{patient.first_name}}, {{first_name}} {{x}}')).toBe(
      '{{first_name}}',
    );
    expect(unknownPlaceholder('Hi {{patient.mrn}}')).toBe('{{patient.mrn}}');
    expect(unknownPlaceholder('Hi {{patient.extra_data}}')).toBe('{{patient.extra_data}}');
    expect(unknownPlaceholder('Hi {{input_data}}')).toBe('{{input_data}}');
    expect(unknownPlaceholder('Hi {{patient.first_name')).toBe('{{patient.first_name');
  });
});
