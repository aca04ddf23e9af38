// The demo plugin (docs/plugins.md "Minimal plugin", docs/demo.md): it shows the open conversation's contact,
// writes contact properties through the app, and shows when its signed token expires. A real plugin sends
// that token to its own server, which verifies it with the plugin's auth secret.
(function () {
  'use strict';
  var app = window.parent;
  var customer = null;
  var nextId = 1;
  var waiting = {};
  var $ = function (id) { return document.getElementById(id); };

  function send(message) { app.postMessage(message, '*'); }
  function ask(event, data, then) {
    var id = 'r' + nextId++;
    waiting[id] = then;
    send({ event: event, id: id, data: data });
  }
  function property(label) {
    var found = (customer && customer.properties || []).filter(function (p) { return p.label.toLowerCase() === label.toLowerCase(); })[0];
    return found ? found.value : null;
  }
  function show(conversation) {
    customer = conversation ? conversation.customer : null;
    var name = customer ? customer.name : conversation ? conversation.name : null;
    $('who').textContent = name ? 'Cliente: ' + name : 'Nenhuma conversa aberta.';
    $('details').hidden = !customer;
    $('phone').textContent = (customer && customer.phone) || '-';
    $('email').textContent = (customer && customer.email) || '-';
    $('last').textContent = property('Último pedido') || '-';
    $('order').disabled = $('vip').disabled = !customer;
  }
  function setProperty(label, value, done) {
    send({ event: 'loading', data: true });
    ask('set-property', { label: label, value: value }, function (answer) {
      send({ event: 'loading', data: false });
      send({ event: 'toast', data: answer && answer.ok ? { message: label + ': ' + value, type: 'success' } : { message: 'Não foi possível salvar.', type: 'error' } });
      if (answer && answer.ok && done) done();
    });
  }

  window.addEventListener('message', function (e) {
    if (e.source !== app) return;
    var m = e.data || {};
    if (m.id !== undefined && waiting[m.id]) {
      var then = waiting[m.id];
      delete waiting[m.id];
      then(m.data);
      return;
    }
    if (m.event === 'conversation') show(m.data);
    else if (m.event === 'no_conversation') show(null);
    else if (m.event === 'auth') {
      $('auth').textContent = m.data && m.data.expiresAt
        ? 'Token do operador recebido; vale até ' + new Date(m.data.expiresAt).toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' }) + '.'
        : 'Sem token do operador.';
    }
  });

  $('order').addEventListener('click', function () {
    var today = new Date().toLocaleDateString('pt-BR');
    ask('dialog_confirm', { title: 'Registrar pedido', message: 'Registrar um pedido de hoje (' + today + ') para ' + customer.name + '?' }, function (answer) {
      if (answer && answer.confirmed) setProperty('Último pedido', today, function () { $('last').textContent = today; });
    });
  });
  $('vip').addEventListener('click', function () { setProperty('Cliente', 'VIP'); });
})();
